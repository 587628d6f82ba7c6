# kseries watch as a service (no --once) against a real local public-inbox
# that goes away: every failed poll is one line (how many in a row, the last
# good poll, the wait before the next, which doubles), the watcher stays up,
# poll.json and --status say what failed and what is pending; when the inbox
# is back, the revision that arrived meanwhile is read from the archive and
# answered; SIGTERM ends it (143). (Issue 50: the first failed poll ended
# the watcher.)
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
add_revision 1
port=${INBOX_URL#http://127.0.0.1:}; port=${port%%/*}

setsid "${watch[@]}" --interval 1 >"$TMP/w.out" 2>"$TMP/w.err" </dev/null &
w=$!
at_exit "kill -9 $w 2>/dev/null"
answered() { [ "$(outbox_count)" = "$1" ]; }
wait_until 120 answered 1 || fail "v1 not answered: $(cat "$TMP/w.out" "$TMP/w.err")"

# The inbox goes away.
kill "$INBOX_PID"; wait "$INBOX_PID" 2>/dev/null || true
failed() { [ "$(grep -c '^watch: poll failed' "$TMP/w.out")" -ge "$1" ]; }
wait_until 60 failed 3 || fail "no failed polls reported: $(cat "$TMP/w.out")"
kill -0 "$w" || fail "the watcher ended when its inbox went away: $(tail "$TMP/w.out" "$TMP/w.err")"
expect_grep "^watch: poll failed (1 in a row; last good poll 20[0-9-]*T[0-9:]*Z): cannot read the inbox: .*manifest.js.gz: curl exit 7.*; next poll in 1 s$" "$TMP/w.out"
expect_grep "^watch: poll failed (2 in a row; .*; next poll in 2 s$" "$TMP/w.out"
expect_grep "^watch: poll failed (3 in a row; .*; next poll in 4 s$" "$TMP/w.out"
state=$(ls -d "$TMP"/wd/watch/*/)
[ "$(jq -r .failures "$state/poll.json")" -ge 3 ] || fail "poll.json: $(cat "$state/poll.json")"
expect_exit 0 "$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --outbox "$TMP/outbox" --status
expect_grep "^watch: last poll .*, failed ([0-9]* in a row): cannot read the inbox" "$TMP/out"
expect_grep "^watch: next poll 20" "$TMP/out"
expect_grep "^watch: revisions: 1 answered" "$TMP/out"

# Mail arrives while it is away; then the inbox is back on its port.
add_revision 2 "$cover" careful
v2=$cover
setsid public-inbox-httpd -W0 -l "http://127.0.0.1:$port" </dev/null >>"$TMP/httpd.log" 2>&1 &
INBOX_PID=$!
at_exit "kill $INBOX_PID"
wait_until 120 answered 2 || fail "v2 not answered after the inbox came back: $(tail -20 "$TMP/w.out")"
# The answer's file is written before its line is printed and poll.json is
# written at the end of the poll: wait for each rather than race the watcher.
v2_line() { grep -q "<$v2>: PASS, warning: toy demo" "$TMP/w.out"; }
wait_until 30 v2_line || fail "v2's line: $(tail "$TMP/w.out")"
recovered() { [ "$(jq -r .failures "$state/poll.json")" = 0 ]; }
wait_until 30 recovered || fail "poll.json after recovery: $(cat "$state/poll.json")"
sunk() { [ "$(sunk_count)" = 2 ]; }
wait_until 30 sunk || fail "$(sunk_count) mails sent: $(ls "$SINK")"

kill -TERM "$w"
set +e; wait "$w"; rc=$?; set -e
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc: $(tail "$TMP/w.err")"
echo PASS
