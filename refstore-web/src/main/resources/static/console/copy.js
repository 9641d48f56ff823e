// Copy buttons: a button with data-copy puts that text on the clipboard and says so for a moment.
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
		navigator.clipboard.writeText(button.getAttribute("data-copy")).then(
			function () { done("Copied"); },
			function () { done("Copy failed"); });
	});
})();
