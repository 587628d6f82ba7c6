# Two `kseries watch --once` on one state, the second with --wait started
# while the first is busy (its mail server slow): every revision is gated
# once and answered once, the second watcher waiting for the first. Without
# the state's lock (issue 50, class 1) both gate: 4 gate runs for 2
# revisions (seen with cmd_watch.cc's lock taken out). watch_two_watchers.sh
# checks the refusal of a second watcher without --wait, which fails first
# without the lock, so this count is checked here on its own.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
add_revision 1
add_revision 2 "$cover" careful
SINK_DELAY=3 setsid "${watch[@]}" --once >"$TMP/a.out" 2>"$TMP/a.err" </dev/null &
a=$!
at_exit "kill -9 $a 2>/dev/null"
gated() { [ "$(gate_runs)" -ge 1 ]; }
wait_until 60 gated || fail "watcher A never gated: $(cat "$TMP/a.err")"
"${watch[@]}" --once --wait >"$TMP/c.out" 2>"$TMP/c.err" </dev/null &
c=$!
wait "$a" || fail "watcher A failed: $(cat "$TMP/a.err")"
wait "$c" || fail "watcher C failed: $(cat "$TMP/c.err")"
[ "$(gate_runs)" = 2 ] || fail "$(gate_runs) gate runs for 2 revisions"
[ "$(sunk_count)" = 2 ] || fail "$(sunk_count) mails sent for 2 revisions: $(ls "$SINK")"
[ "$(ls "$SINK" | sed 's/^[0-9]*-//' | sort -u | wc -l)" = 2 ] || fail "an answer was sent twice: $(ls "$SINK")"
echo PASS
