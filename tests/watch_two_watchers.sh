# Two `kseries watch` on one state (the same inbox and outbox), as cron
# jobs that overlap or a service and a hand-run --once do: the second one
# refuses at once, naming the first (its pid and command), and nothing is
# gated or answered twice; with --wait it waits for the first, then finds
# nothing left to do. (Issue 50: without a lock, two watchers piped the same
# answer twice and ran the gate twice in 3 of 4 rounds.)
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
add_revision 1
add_revision 2 "$cover" careful

# A: a slow mail server keeps it busy for seconds after its first gate.
SINK_DELAY=3 setsid "${watch[@]}" --once >"$TMP/a.out" 2>"$TMP/a.err" </dev/null &
a=$!
at_exit "kill -9 $a 2>/dev/null"
lock_held() { grep -q "kseries watch" "$TMP"/wd/watch/*/lock 2>/dev/null; }
wait_until 60 lock_held || fail "watcher A never took the state: $(cat "$TMP/a.err")"
# B, while A works: refused, naming A.
expect_exit 2 "${watch[@]}" --once
expect_grep "another watcher (pid $a: kseries watch --inbox $INBOX_URL --outbox $TMP/outbox)" "$TMP/err"
expect_grep "not starting a second one" "$TMP/err"
# C, with --wait: waits for A, then has nothing to do.
"${watch[@]}" --once --wait >"$TMP/c.out" 2>"$TMP/c.err" </dev/null &
c=$!
wait "$a" || fail "watcher A failed: $(cat "$TMP/a.err")"
wait "$c" || fail "watcher C failed: $(cat "$TMP/c.err")"
expect_grep "^watch: 2 new revision(s), 2 answer(s)" "$TMP/a.out"
expect_grep "waiting for the other watcher (pid $a" "$TMP/c.err"
expect_grep "^watch: 0 new revision(s), 0 answer(s)" "$TMP/c.out"
[ "$(gate_runs)" = 2 ] || fail "$(gate_runs) gate runs for 2 revisions"
[ "$(sunk_count)" = 2 ] || fail "$(sunk_count) mails sent for 2 revisions: $(ls "$SINK")"
[ "$(ls "$SINK" | sed 's/^[0-9]*-//' | sort -u | wc -l)" = 2 ] || fail "an answer was sent twice: $(ls "$SINK")"

# Two watchers started in the same instant, five times over, each time with
# a new revision: every revision gated once and answered once.
for version in 3 4 5 6 7; do
  add_revision "$version" "$cover"
  "${watch[@]}" --once >"$TMP/x.out" 2>"$TMP/x.err" </dev/null & x=$!
  "${watch[@]}" --once >"$TMP/y.out" 2>"$TMP/y.err" </dev/null & y=$!
  set +e; wait "$x"; rx=$?; wait "$y"; ry=$?; set -e
  [ "$rx$ry" = 02 ] || [ "$rx$ry" = 20 ] || [ "$rx$ry" = 00 ] \
    || fail "round $version: exits $rx and $ry: $(cat "$TMP/x.err" "$TMP/y.err")"
  [ "$(gate_runs)" = "$version" ] || fail "round $version: $(gate_runs) gate runs"
  [ "$(sunk_count)" = "$version" ] || fail "round $version: $(sunk_count) mails: $(ls "$SINK")"
done
[ "$(ls "$SINK" | sed 's/^[0-9]*-//' | sort -u | wc -l)" = 7 ] || fail "an answer was sent twice: $(ls "$SINK")"
echo PASS
