# kseries watch follows the archive, not its feed's window (issue 49), on a
# real local public-inbox: the epoch's git history is read from a cursor, so
# 30 revisions and 30 replies between two polls are all found (the feed
# holds 25 messages: read with --source feed, most are lost, and the watch
# says so); a new watch starts at the newest message unless --since gives a
# date or a commit to backfill from; a kill between recording what it read
# and moving the cursor loses and duplicates nothing; downloads stop at
# their cap while they stream (a chunked feed that never ends, an epoch
# larger than --max-fetch-mib). Gates are not run (--dry-run): this is
# about what is read.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
epoch=$TMP/inbox/git/0.git
dry=("${watch[@]/--since/--dry-run}")
dry=("${dry[@]/2000-01-01/--once}")   # --dry-run --once, no --since
revisions() { jq -r 'select(.phase != null) | .message_id' "$1"/*.json | sort; }
# The state of the watch into OUTBOX (its lock file names its command).
state_of() { dirname "$(grep -l -- "--outbox $1\$" "$TMP"/wd/watch/*/lock)"; }

# N single patches from PREFIX, each with a reply, dated one second apart.
clock=$(date +%s)
post() {
  local prefix=$1 n=$2 i
  for i in $(seq 1 "$n"); do
    clock=$((clock + 2))
    cat >"$TMP/m.eml" <<MAIL
From: Poster $i <poster$i@example.org>
To: $INBOX_ADDR
Subject: [PATCH] $prefix: change $i
Date: $(date -R -d "@$clock")
Message-Id: <$prefix-$i@example.org>

A lone patch.
---
diff --git a/a.c b/a.c
--- a/a.c
+++ b/a.c
@@ -1 +1 @@
-int a1;
+int b$i;
MAIL
    inbox_add "$TMP/m.eml"
    cat >"$TMP/r.eml" <<MAIL
From: Reviewer <rev@example.org>
To: $INBOX_ADDR
Subject: Re: [PATCH] $prefix: change $i
Date: $(date -R -d "@$((clock + 1))")
Message-Id: <re-$prefix-$i@example.org>
In-Reply-To: <$prefix-$i@example.org>

Looks fine.
MAIL
    inbox_add "$TMP/r.eml"
  done
}

post early 3
# A new watch starts at the archive's newest message: nothing old is taken.
expect_exit 0 "${dry[@]}"
expect_grep "^watch: starting at the archive's newest message (epoch 0, commit [0-9a-f]\{12\} of " "$TMP/out"
expect_grep "^watch: 0 new revision(s)" "$TMP/out"
# 60 messages arrive; the next poll reads every one.
post burst 30
expect_exit 0 "${dry[@]}"
expect_grep "^watch: read 60 message(s) from archive $INBOX_URL, epochs 0..0; not revisions: 30 replies$" "$TMP/out"
expect_grep "^watch: 30 new revision(s)" "$TMP/out"
[ "$(grep -c ': fetched (--dry-run: not gated)$' "$TMP/out")" = 30 ] || fail "not every revision fetched: $(cat "$TMP/out")"
state=$(state_of "$TMP/outbox")
[ "$(revisions "$state" | wc -l)" = 30 ] || fail "$(revisions "$state" | wc -l) revisions recorded"
expect_exit 0 "${dry[@]}"
expect_grep "^watch: read 0 message(s)" "$TMP/out"

# The same through the feed: its window loses most of them, and says so.
feed=("${dry[@]/$TMP\/outbox/$TMP/outbox-feed}" --source feed)
post quiet 1
expect_exit 0 "${feed[@]}"
expect_grep "^watch: note: the feed holds only the inbox's newest messages (25 entries" "$TMP/out"
post lost 30
expect_exit 0 "${feed[@]}"
expect_grep "^watch: warning: the feed's window (25 entries, the oldest of .*) no longer holds the newest message of the last poll (<re-quiet-1@example.org>, " "$TMP/out"
grep -q "^watch: 30 new revision(s)" "$TMP/out" && fail "the feed held all 30"

# --since a commit of the epoch: every revision after it, none before.
# (git log -1, not "| head -1": the patch and its reply both match, and a
# git that writes its second line after head has gone dies of SIGPIPE,
# which pipefail and set -e turned into a silent exit under load)
after=$(git --git-dir="$epoch" log -1 --format=%H --grep='burst: change 20$')
[ -n "$after" ] || fail "no commit for burst 20 in $epoch"
since=("${dry[@]/$TMP\/outbox/$TMP/outbox-since}" --since "$after")
expect_exit 0 "${since[@]}"
expect_grep "^watch: starting after commit ${after:0:12} of epoch 0 (--since)" "$TMP/out"
expect_grep "^watch: 41 new revision(s)" "$TMP/out"  # burst 21-30, quiet 1, lost 1-30
expect_exit 2 "${dry[@]/$TMP\/outbox/$TMP/outbox-x}" --since 0123456789012345678901234567890123456789
expect_grep "no epoch of $INBOX_URL has this commit" "$TMP/err"

# A kill after recording what it read, before the cursor moves: the restart
# reads the same messages again and records nothing twice.
post killed 5
expect_exit 137 env KSERIES_FAILPOINT=watch-recorded "${dry[@]}"
# (burst 30, then quiet 1, lost 30 and killed 5 in the killed poll)
[ "$(revisions "$state" | wc -l)" = 66 ] || fail "$(revisions "$state" | wc -l) revisions after the kill"
expect_exit 0 "${dry[@]}"
expect_grep "^watch: read 72 message(s)" "$TMP/out"
expect_grep "^watch: 0 new revision(s)" "$TMP/out"
[ "$(revisions "$state" | uniq -d | wc -l)" = 0 ] || fail "duplicates"
[ "$(revisions "$state" | wc -l)" = 66 ] || fail "$(revisions "$state" | wc -l) revisions after the restart"

# Downloads stop at their cap while they stream. An epoch larger than
# --max-fetch-mib:
head -c 3000000 /dev/urandom | base64 >"$TMP/big.txt"
{ printf 'From: Big <big@example.org>\nTo: %s\nSubject: [PATCH] big: a big one\nMessage-Id: <big@example.org>\n\n' "$INBOX_ADDR"; cat "$TMP/big.txt"; } >"$TMP/big.eml"
inbox_add "$TMP/big.eml"
expect_exit 2 "${dry[@]/$TMP\/outbox/$TMP/outbox-capped}" --max-fetch-mib 1
expect_grep "git fetch $INBOX_URL/git/0.git: the pack is larger than 1 MiB (--max-fetch-mib): stopped there" "$TMP/err"
# A feed served chunked that never ends: stopped at 4 MiB, in seconds.
port=$(free_ports 1)
python3 - "$port" >"$TMP/endless.log" 2>&1 <<'PY' &
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if not self.path.endswith("/new.atom"):
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200)
        self.send_header("Content-Type", "application/atom+xml")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"<!-- " + b"x" * 65536 + b" -->"
        try:
            self.wfile.write(b"%x\r\n<feed>\r\n" % 6)
            while True:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except (BrokenPipeError, ConnectionResetError):
            pass
    def log_message(self, *args): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
endless=$!
at_exit "kill $endless"
wait_until 30 curl -s -o /dev/null "http://127.0.0.1:$port/x" || fail "the endless server did not start"
start=$SECONDS
expect_exit 2 "$KSERIES" watch --workdir "$TMP/wd" --inbox "http://127.0.0.1:$port/toy" --outbox "$TMP/outbox-endless" --dry-run --once
expect_grep "http://127.0.0.1:$port/toy/new.atom is larger than 4096 KiB: stopped there" "$TMP/err"
[ $((SECONDS - start)) -lt 30 ] || fail "the endless feed took $((SECONDS - start)) s"
echo PASS
