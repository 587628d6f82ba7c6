# kseries watch over a real list archive, replayed (issue 49): a public-inbox
# v2 epoch (KSERIES_REPLAY_EPOCH: a git repository of one, e.g. the fetched
# linux-mailinglist-archives/nvdimm.lists.linux.dev.0) loaded into a local
# public-inbox served on 127.0.0.1, its history advanced from
# KSERIES_REPLAY_FROM to KSERIES_REPLAY_TO (commit dates; default May to
# July 2026). Three watches (--dry-run: read, record, fetch with b4; no
# gate), each from FROM: `weekly` polls after every week, `once` polls
# once at the end, `killed` polls every week, killed by SIGKILL after it
# recorded what it read and before its cursor moved, and again from outside
# at a random moment of its next run, then polled to the end. All three
# must hold the same revisions, each once, and exactly the revision starts
# that an independent reading of `git log FROM..TO` of the epoch (Python's
# email parser) finds. Skipped without KSERIES_REPLAY_EPOCH.
source "$(dirname "$0")/lib.bash"
[ -n "${KSERIES_REPLAY_EPOCH:-}" ] || { echo "skipped: KSERIES_REPLAY_EPOCH (an epoch's git repository) is not set"; exit 77; }
source "$(dirname "$0")/inbox.bash"
skip_unless_installed jq python3 prlimit public-inbox-index
FROM=${KSERIES_REPLAY_FROM:-2026-05-01}
TO=${KSERIES_REPLAY_TO:-2026-08-01}
archive=$KSERIES_REPLAY_EPOCH
KEEP=${KSERIES_REPLAY_KEEP:-}   # a directory to copy the results into

# The inbox, its history up to FROM, indexed.
public-inbox-init -V2 toy "$TMP/inbox" http://127.0.0.1/toy "$INBOX_ADDR" >/dev/null 2>&1 || fail "public-inbox-init"
git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
epoch=$TMP/inbox/git/0.git
git --git-dir="$epoch" fetch -q "$archive" "+refs/heads/master:refs/heads/replay" || fail "cannot fetch $archive"
at() { git --git-dir="$epoch" rev-list -1 --before="$1" replay; }
start=$(at "$FROM")
git --git-dir="$epoch" update-ref refs/heads/master "$start"
index() { public-inbox-index -L basic "$TMP/inbox" >>"$TMP/index.log" 2>&1 || fail "public-inbox-index: $(tail -3 "$TMP/index.log")"; }
echo "replay: indexing the archive up to $FROM ($(git --git-dir="$epoch" rev-list --count "$start") messages)" >&2
index
port=$(free_ports 1)
setsid public-inbox-httpd -W0 -l "http://127.0.0.1:$port" </dev/null >"$TMP/httpd.log" 2>&1 &
at_exit "kill $!"
INBOX_URL=http://127.0.0.1:$port/toy
wait_until 30 curl -s -o /dev/null "$INBOX_URL/new.atom" || fail "httpd did not start"

run() {  # run NAME [ENV...]: one --once --dry-run poll of the watch NAME
  local name=$1; shift
  env "$@" "$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --outbox "$TMP/outbox-$name" \
    --since "$FROM" --dry-run --once >>"$TMP/$name.out" 2>>"$TMP/$name.err"
}
for name in weekly once killed; do
  run "$name" || fail "$name: first poll: $(tail -5 "$TMP/$name.err")"
done

week=$FROM
while [ "$(date -ud "$week" +%s)" -lt "$(date -ud "$TO" +%s)" ]; do
  week=$(date -ud "$week + 7 days" +%F)
  [ "$(date -ud "$week" +%s)" -gt "$(date -ud "$TO" +%s)" ] && week=$TO
  git --git-dir="$epoch" update-ref refs/heads/master "$(at "$week")"
  index
  echo "replay: up to $week ($(git --git-dir="$epoch" rev-list --count "$start..master") messages since $FROM)" >&2
  run weekly || fail "weekly, to $week: $(tail -5 "$TMP/weekly.err")"
  # Killed after recording, before the cursor moves ...
  set +e; run killed KSERIES_FAILPOINT=watch-recorded; rc=$?; set -e
  [ "$rc" = 137 ] || fail "killed, to $week: exit $rc, not the failpoint's: $(tail -5 "$TMP/killed.err")"
  # ... then from outside, at a random moment of the next run ...
  "$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --outbox "$TMP/outbox-killed" \
    --since "$FROM" --dry-run --once >>"$TMP/killed.out" 2>>"$TMP/killed.err" &
  victim=$!
  sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
  kill -KILL "$victim" 2>/dev/null || true
  wait "$victim" 2>/dev/null || true
  # ... and the poll that finishes.
  run killed || fail "killed, to $week, after the kills: $(tail -5 "$TMP/killed.err")"
done
run once || fail "once: $(tail -5 "$TMP/once.err")"

# What each watch holds: message-id, phase, identity.
held() {
  local dir
  dir=$(dirname "$(grep -l -- "--outbox $TMP/outbox-$1\$" "$TMP"/wd/watch/*/lock)")
  jq -r 'select(.phase != null) | "\(.message_id)\t\(.phase)\t\(.title)"' "$dir"/*.json | sort
}
for name in weekly once killed; do held "$name" >"$TMP/$name.held"; done
cut -f1 "$TMP/weekly.held" | uniq -d >"$TMP/dups"
[ ! -s "$TMP/dups" ] || fail "a revision recorded twice: $(cat "$TMP/dups")"
cmp -s <(cut -f1,2 "$TMP/weekly.held") <(cut -f1,2 "$TMP/once.held") \
  || fail "weekly and once differ: $(diff <(cut -f1,2 "$TMP/weekly.held") <(cut -f1,2 "$TMP/once.held") | head)"
cmp -s <(cut -f1,2 "$TMP/weekly.held") <(cut -f1,2 "$TMP/killed.held") \
  || fail "weekly and killed differ: $(diff <(cut -f1,2 "$TMP/weekly.held") <(cut -f1,2 "$TMP/killed.held") | head)"

# The reference: the epoch's own log, FROM..TO, read with Python's email
# parser: a revision starts at a cover letter (n/N with n = 0), a patch
# alone, or patch 1/N with no 0/N of its revision in its thread.
git --git-dir="$epoch" log --reverse --format=%H "$start..master" >"$TMP/commits"
python3 - "$epoch" "$TMP/commits" >"$TMP/reference" <<'PY'
import email, email.policy, re, subprocess, sys
epoch, commits = sys.argv[1], open(sys.argv[2]).read().split()
prefix = re.compile(r"^\s*((\[[^\]]*\]\s*)+)(.*)$")
msgs = []
for c in commits:
    raw = subprocess.run(["git", "--git-dir=" + epoch, "show", c + ":m"], capture_output=True).stdout
    if not raw:
        continue
    m = email.message_from_bytes(raw.split(b"\n\n", 1)[0] + b"\n\n", policy=email.policy.default)
    subject = " ".join(str(m.get("Subject", "")).split())
    mid = str(m.get("Message-ID", "")).strip().strip("<>").strip()
    irt = str(m.get("In-Reply-To", "")).strip()
    irt = re.findall(r"<([^>]+)>", irt)
    msgs.append((mid, subject, irt[0] if irt else "", str(m.get("References", ""))))
covers = {}
def parse(subject):
    if re.match(r"(?i)^\s*(re|aw|fwd?|sv|antw)\s*[: ]", subject):
        return None
    p = prefix.match(subject)
    if not p or "patch" not in p.group(1).lower():
        return None
    words = re.findall(r"[^\s\[\]]+", p.group(1))
    rev, idx, tot = 1, None, None
    for w in words:
        if re.fullmatch(r"[vV]\d+", w): rev = int(w[1:])
        n = re.fullmatch(r"(\d+)/(\d+)", w)
        if n: idx, tot = int(n.group(1)), int(n.group(2))
    return rev, idx, tot
for mid, subject, irt, refs in msgs:
    k = parse(subject)
    if k and k[1] == 0:
        covers[mid] = k
starts = set()
for mid, subject, irt, refs in msgs:
    k = parse(subject)
    if not k or not mid:
        continue
    rev, idx, tot = k
    if idx == 0:
        starts.add(mid)
    elif idx == 1 and not (irt in covers and covers[irt][0] == rev and covers[irt][2] == tot):
        starts.add(mid)
    elif idx is None:
        starts.add(mid)  # (fixups in a recorded thread are recorded as ignored: still held)
for mid in sorted(starts):
    print(mid)
PY
cut -f1 "$TMP/weekly.held" >"$TMP/weekly.ids"
missing=$(comm -23 "$TMP/reference" "$TMP/weekly.ids")
extra=$(comm -13 "$TMP/reference" "$TMP/weekly.ids")
echo "replay: $(wc -l <"$TMP/reference") revision starts in git log $FROM..$TO; the watches hold $(wc -l <"$TMP/weekly.ids"): $(cut -f2 "$TMP/weekly.held" | sort | uniq -c | tr '\n' ' ')" >&2
[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$TMP"/*.held "$TMP/reference" "$TMP"/*.out "$TMP"/*.err "$KEEP/"
[ -z "$missing" ] || fail "in git log, not held: $missing"
[ -z "$extra" ] || fail "held, not in git log: $extra"
echo PASS
