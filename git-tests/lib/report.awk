# Prints run.sh's report: a row per script run, then
#   git-tests: scripts=N ok=X notok=Y new_failures=Z
# N counts distinct scripts, X and Y are summed over the runs, and Z counts the tests that fail through refstore
# but not with git alone, plus those that did not run but passed (or were known breakages) with git alone. A row
# ends with its new failures as ranges of test numbers ("3-5,9"; "-" for none), followed by "(N did not run)"
# when some were lost, and .ci/git-tests.sh reads it so: keep the columns. vs-base is the number of tests whose
# outcome differs from git alone's ("=" for none, "no-base" when the baseline lacks the run).
# Exits 1 when Z > 0 or a run did not end as done.
# Input: the baseline ("<script> <format> <number> <outcome>" a line; none in a baseline run), then the runs'
# rows ("<index>" and a tap-summary.awk row, tab-separated). Variables: baseline (the baseline file's name), work
# (each run's outcomes are in work/<index>/outcomes), baseline_run (non-empty when this run is the baseline itself).

BEGIN { FS = "\t" }

FILENAME == baseline {
	if ($0 !~ /^#/ && NF >= 4) {
		base[$1, $2, $3 + 0] = normal($4)
		has_base[$1, $2] = 1
		if ($3 + 0 > base_last[$1, $2]) base_last[$1, $2] = $3 + 0
	}
	next
}

NF >= 12 { report($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) }

# a known breakage that passed counts as passing
function normal(outcome) {
	return outcome == "fixed" ? "ok" : outcome
}

# "1,2,3,5" -> "1-3,5", for the count numbers in list[1..count], ascending
function ranges(list, count,   i, from, to, text) {
	text = ""
	for (i = 1; i <= count; i++) {
		from = to = list[i]
		while (i < count && list[i + 1] == to + 1) to = list[++i]
		text = text (text == "" ? "" : ",") (from == to ? from : from "-" to)
	}
	return text
}

function report(index_, script, format, status, total, ok, notok, skip, todo, tool, routed, seconds,
		now, line, part, last, n, was, is, differ, lost, count, fresh, file, new_column, diff_column) {
	runs++
	if (!(script in seen)) {
		seen[script] = 1
		scripts++
	}
	sum_ok += ok
	sum_notok += notok
	if (status != "done") unfinished = 1

	file = work "/" index_ "/outcomes"
	last = 0
	while ((getline line < file) > 0) {
		split(line, part, " ")
		now[part[1] + 0] = normal(part[2])
		if (part[1] + 0 > last) last = part[1] + 0
	}
	close(file)

	count = lost = differ = 0
	if ((script, format) in has_base) {
		if (base_last[script, format] > last) last = base_last[script, format]
		for (n = 1; n <= last; n++) {
			was = ((script, format, n) in base) ? base[script, format, n] : "none"
			is = (n in now) ? now[n] : "none"
			if (is != was) differ++
			if (is == "fail" && was != "fail") fresh[++count] = n
			else if (is == "none" && (was == "ok" || was == "todo")) {
				fresh[++count] = n
				lost++
			}
		}
		diff_column = differ == 0 ? "=" : differ
	}
	else {
		for (n = 1; n <= last; n++) if (now[n] == "fail") fresh[++count] = n
		diff_column = "no-base"
	}
	new_column = count == 0 ? "-" : ranges(fresh, count)
	if (lost) new_column = new_column " (" lost " did not run)"
	if (baseline_run != "") {
		count = 0
		diff_column = "-"
		new_column = "(baseline)"
	}
	new_failures += count
	row[runs] = sprintf("%-28s %-8s %-7s %5d %5d %5d %4d %4d %3d %6d %5d %-7s %s", script, format, status, total,
		ok, notok, skip, todo, tool, routed, seconds, diff_column, new_column)
}

END {
	printf "%-28s %-8s %-7s %5s %5s %5s %4s %4s %3s %6s %5s %-7s %s\n", "script", "format", "status", "total", "ok",
		"notok", "skip", "todo", "tt", "routed", "secs", "vs-base", "new failures (test numbers)"
	for (i = 1; i <= runs; i++) print row[i]
	printf "git-tests: scripts=%d ok=%d notok=%d new_failures=%d\n", scripts, sum_ok, sum_notok, new_failures
	exit (new_failures > 0 || unfinished) ? 1 : 0
}
