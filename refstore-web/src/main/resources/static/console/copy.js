// Copy buttons: a button with data-copy puts that text on the clipboard and says so for a moment. Over plain
// http (not localhost) browsers have no clipboard API, so the text is copied from a selected field.
(function () {
	"use strict";
	document.addEventListener("click", function (event) {
		var button = event.target.closest("button[data-copy]");
		if (!button) {
			return;
		}
		var done = function (label) {
			button.textContent = label;
			setTimeout(function () { button.textContent = "Copy"; }, 1500);
		};
		var text = button.getAttribute("data-copy");
		if (navigator.clipboard && window.isSecureContext) {
			navigator.clipboard.writeText(text).then(
				function () { done("Copied"); },
				function () { done("Copy failed"); });
			return;
		}
		// plain http (not localhost): the clipboard API is not there; copy from a selected field instead
		var field = document.createElement("textarea");
		field.value = text;
		field.setAttribute("readonly", "");
		field.style.position = "fixed";
		field.style.opacity = "0";
		document.body.appendChild(field);
		field.select();
		var copied = false;
		try {
			copied = document.execCommand("copy");
		}
		catch (error) {
			copied = false;
		}
		document.body.removeChild(field);
		done(copied ? "Copied" : "Copy failed");
	});
})();
