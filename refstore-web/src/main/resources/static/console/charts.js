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

	// one series per kind of job, drawn as points (separate runs are not a line), on one scale; data-lines="true"
	// joins each series' points (one quantity over time), data-axis names the scale and data-empty the empty chart
	// times as the rest of the console writes them (time.js): the viewer's zone, 24-hour
	var clock = new Intl.DateTimeFormat(undefined, {
		year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
		timeZoneName: 'short'
	});

	function parts(seconds) {
		var part = {};
		clock.formatToParts(new Date(seconds * 1000)).forEach(function (p) { part[p.type] = p.value; });
		return part;
	}

	// the x axis' ticks: dates over more than two days, else hours and minutes (with the date where it changes)
	function ticks(u, splits) {
		var span = u.scales.x.max - u.scales.x.min;
		var lastDay = null;
		return splits.map(function (v) {
			if (v == null) {
				return null;
			}
			var p = parts(v);
			var day = p.year + '-' + p.month + '-' + p.day;
			if (span > 2 * 86400) {
				return day;
			}
			var label = p.hour + ':' + p.minute + (day !== lastDay ? '\n' + day : '');
			lastDay = day;
			return label;
		});
	}

	// the legend's values: the point under the cursor, else the newest (never uPlot's "--")
	function at(u, v, sidx, idx) {
		if (idx == null) {
			var values = u.data[sidx];
			v = values[values.length - 1];
		}
		return v;
	}

	function when(u, v, sidx, idx) {
		v = at(u, v, sidx, idx);
		if (v == null) {
			return '';
		}
		var p = parts(v);
		return p.year + '-' + p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute + ' ' + p.timeZoneName;
	}

	function figure(u, v, sidx, idx) {
		v = at(u, v, sidx, idx);
		return (v == null) ? '' : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
	}

	function timeSeries(el) {
		var data = JSON.parse(el.dataset.series || '{"x":[],"series":[]}');
		var lines = el.dataset.lines === 'true';
		if (data.x.length === 0) {
			el.textContent = el.dataset.empty || 'No finished job yet.';
			return;
		}
		var colours = ['#1f5fbf', '#12753a', '#a15c00', '#b42318', '#6b3fa0', '#0e7490'];
		var series = [{ label: 'Time', value: when }];
		var columns = [data.x];
		data.series.forEach(function (s, i) {
			series.push(lines ? { label: s.label, value: figure, scale: 's', stroke: colours[i % colours.length], width: 2,
				points: { show: true, size: 5, fill: colours[i % colours.length] } }
				: { label: s.label, value: figure, scale: 's', stroke: colours[i % colours.length], width: 0,
					paths: function () { return null; },
					points: { show: true, size: 8, fill: colours[i % colours.length] } });
			columns.push(s.values);
		});
		new uPlot({
			width: width(el), height: 260,
			scales: { s: { auto: true, range: function (u, min, max) { return [Math.min(0, min) * 1.1, Math.max(1, max) * 1.1]; } } },
			axes: [{ values: ticks, space: 70 }, { scale: 's', label: el.dataset.axis || 'seconds', size: 60 }],
			series: series
		}, columns, el);
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
