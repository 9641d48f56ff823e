# Reads the TAP output of one of git's test scripts and writes each test's outcome to the file `outcomes`
# ("<number> ok|fixed|skip|todo|fail", in order), then prints the run's summary row, tab-separated:
#   script format status total ok notok skip todo tool_failures routed seconds
# status is done, timeout (exit 124 or 137 from timeout(1)) or aborted (a bail out, no plan, or a planned test
# without a result); ok counts fixed tests (a known breakage that passed); tool_failures counts the failing tests
# that called a test-tool helper the stand-in refuses (from tool_log); routed counts the lines of routed_log.
# Variables: script, format, exit_status, seconds, tool_log, routed_log, outcomes.

/^ok [0-9]+ # skip/ { outcome[$2 + 0] = "skip"; next }
/^ok [0-9]+/ { outcome[$2 + 0] = /# TODO known breakage vanished$/ ? "fixed" : "ok"; next }
/^not ok [0-9]+/ { outcome[$3 + 0] = /# TODO known breakage$/ ? "todo" : "fail"; next }
/^1\.\.[0-9]+/ { planned = substr($1, 4) + 0; has_plan = 1 }
/^Bail out!/ { bailed = 1 }

END {
	# "<script>.<number><TAB><helper><TAB>refused" names a test that needed a helper
	while ((getline line < tool_log) > 0) {
		split(line, field, "\t")
		if (field[3] == "refused") {
			number = field[1]
			sub(/^.*\./, "", number)
			needed_tool[number + 0] = 1
		}
	}
	routed = 0
	while ((getline line < routed_log) > 0) routed++

	status = "done"
	if (exit_status == 124 || exit_status == 137) status = "timeout"
	else if (bailed || !has_plan) status = "aborted"
	else for (n = 1; n <= planned; n++) if (!(n in outcome)) status = "aborted"

	last = planned
	for (n in outcome) if (n + 0 > last) last = n + 0
	total = ok = notok = skip = todo = tool = 0
	printf "" > outcomes
	for (n = 1; n <= last; n++) {
		if (!(n in outcome)) continue
		total++
		print n, outcome[n] > outcomes
		if (outcome[n] == "ok" || outcome[n] == "fixed") ok++
		else if (outcome[n] == "skip") skip++
		else if (outcome[n] == "todo") todo++
		else {
			notok++
			if (n in needed_tool) tool++
		}
	}
	close(outcomes)
	printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", script, format, status, total, ok, notok, skip, todo,
		tool, routed, seconds
}
