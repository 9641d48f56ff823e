// Draws the console's charts with uPlot (served from its WebJar). Each chart is an element with
// data-labels / data-values ('|'-separated), or data-series (JSON) for time series; the same figures are
// always in a table beside it, so the chart is a convenience, not the only way to read them.
(function () {
	'use strict';

	function width(el) {
		return Math.max(280, Math.min(el.clientWidth || 600, 1100) - 16);
	}

	function bars(el) {
		var labels = (el.dataset.labels || '').split('|').filter(function (s) { return s.length > 0; });
		var values = (el.dataset.values || '').split('|').filter(function (s) { return s.length > 0; }).map(Number);
		if (labels.length === 0) {
			el.textContent = 'No refs.';
			return;
		}
		var xs = labels.map(function (_, i) { return i; });
		new uPlot({
			width: width(el), height: 240, legend: { show: false },
			scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: [0, Math.max.apply(null, values) * 1.1 || 1] } },
			axes: [
				{ values: function (u, ticks) { return ticks.map(function (t) { return Number.isInteger(t) ? (labels[t] || '') : ''; }); },
					incrs: [1], size: 40 },
				{ size: 70 }
			],
			series: [{}, { label: 'refs', fill: 'rgba(31,95,191,0.6)', stroke: '#1f5fbf',
				paths: uPlot.paths.bars({ size: [0.6, 80] }), points: { show: false } }]
		}, [xs, values], el);
		el.dataset.drawn = 'true';
	}

	function timeSeries(el) {
		var data = JSON.parse(el.dataset.series || '{"x":[],"series":[]}');
		if (data.x.length === 0) {
			el.textContent = 'No finished job yet.';
			return;
		}
		var series = [{}];
		var columns = [data.x];
		var colours = ['#1f5fbf', '#12753a'];
		data.series.forEach(function (s, i) {
			series.push({ label: s.label, scale: s.scale, stroke: colours[i % colours.length], width: 2,
				points: { show: true, size: 6 } });
			columns.push(s.values);
		});
		var scales = {};
		var axes = [{}];
		data.series.forEach(function (s, i) {
			scales[s.scale] = { auto: true };
			axes.push({ scale: s.scale, label: s.label, side: i === 0 ? 3 : 1, size: 70, grid: { show: i === 0 } });
		});
		new uPlot({ width: width(el), height: 260, scales: scales, axes: axes, series: series }, columns, el);
		el.dataset.drawn = 'true';
	}

	function draw() {
		if (typeof uPlot === 'undefined') {
			return;
		}
		document.querySelectorAll('[data-labels]:not([data-drawn])').forEach(bars);
		document.querySelectorAll('[data-series]:not([data-drawn])').forEach(timeSeries);
	}

	// parts of a page that htmx loads later (a repository's health) bring their charts with them
	document.addEventListener('htmx:afterSettle', draw);

	if (document.readyState === 'loading') {
		document.addEventListener('DOMContentLoaded', draw);
	}
	else {
		draw();
	}
}());
