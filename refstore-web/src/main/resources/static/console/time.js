// Every <time datetime> of a console page in the viewer's own time zone, as "2026-12-01 14:44:11 CET": the
// server wrote UTC. With data-relative the text is "5 minutes ago" and the full time is the tooltip. Runs on
// load and on every part htmx swaps in.
(function () {
	"use strict";
	var absolute = new Intl.DateTimeFormat(undefined, {
		year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
		hourCycle: "h23", timeZoneName: "short"
	});
	var relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
	var steps = [["second", 60], ["minute", 60], ["hour", 24], ["day", 30], ["month", 12], ["year", Infinity]];

	function full(date) {
		var part = {};
		absolute.formatToParts(date).forEach(function (p) { part[p.type] = p.value; });
		return part.year + "-" + part.month + "-" + part.day + " " + part.hour + ":" + part.minute + ":" + part.second
			+ " " + part.timeZoneName;
	}

	function ago(date) {
		var amount = (date.getTime() - Date.now()) / 1000;
		for (var i = 0; i < steps.length; i++) {
			// rounded first, so that 59.6 seconds is "1 minute ago", not "60 seconds ago"
			var rounded = Math.round(amount);
			if (Math.abs(rounded) < steps[i][1]) {
				return relative.format(rounded, steps[i][0]);
			}
			amount /= steps[i][1];
		}
		return full(date);
	}

	function localize(root) {
		var times = root.querySelectorAll ? root.querySelectorAll("time[datetime]") : [];
		times.forEach(function (time) {
			var date = new Date(time.getAttribute("datetime"));
			if (isNaN(date.getTime())) {
				return;
			}
			if (time.hasAttribute("data-relative")) {
				time.textContent = ago(date);
				time.title = full(date);
			}
			else {
				time.textContent = full(date);
			}
		});
	}

	document.addEventListener("DOMContentLoaded", function () { localize(document); });
	document.addEventListener("htmx:load", function (event) { localize(event.detail.elt); });
})();
