# kseries watch against a real public-inbox (public-inbox-httpd on
# 127.0.0.1) holding two revisions of a toy series (v2 a correct but slower
# port of v1's fast path, sent in reply to v1's cover) and a review reply:
# `watch --once` answers each revision once, v2 compared with v1 and its
# slowdown first in the mail; every answer is a reply to its cover letter
# (In-Reply-To/References), To the author, Cc the list, "Re: [PATCH vN 0/2]
# ...", read back with Python's email parser. Killed with SIGKILL at four
# points (after recording what it saw; from outside, kill -9 while v1's
# kernel boots; after v2's gate; after writing v2's answer before recording
# it) and restarted each time, it loses no revision and sends nothing
# twice (the --sendmail sink counts each Message-ID).
# --match selects by change-id and by the files the patches touch.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
skip_unless_installed jq python3
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
seq 1 30 | sed 's/^/int a/; s/$/;/' >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo later >"$repo/later" && git -C "$repo" add later && git -C "$repo" commit -q -m later
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=fsdax-dev,devdax-mem\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm

inbox_start
toy_revision "$repo" "$base" 1 "$TMP/mails/v1" "" "demo: rename a20|sed -i s/a20/A20/ a.c" \
  "demo: set the speed|echo fast >speed"
v1=$(message_id "$TMP/mails/v1/v1-0000-cover-letter.patch")
toy_revision "$repo" "$base" 2 "$TMP/mails/v2" "$v1" "demo: rename a20|sed -i s/a20/A20/ a.c" \
  "demo: set the speed|echo careful >speed"
v2=$(message_id "$TMP/mails/v2/v2-0000-cover-letter.patch")
inbox_add "$TMP/mails/v1"/*.patch "$TMP/mails/v2"/*.patch
cat >"$TMP/review.eml" <<MAIL
From: Rev Iewer <rev@example.com>
To: $INBOX_ADDR
Subject: Re: [PATCH v2 0/2] toy: the toy series
Date: Wed, 2 Dec 2026 07:00:00 +0000
Message-Id: <review-2@example.com>
In-Reply-To: <$v2>
References: <$v2>

Why is the fast path slower now?
MAIL
inbox_add "$TMP/review.eml"

# The sink: one file per mail it is given, named by its Message-ID.
cat >"$TMP/sink" <<'SH'
#!/bin/sh
mail=$(cat)
id=$(printf '%s\n' "$mail" | sed -n 's/^Message-ID: <\(.*\)>$/\1/Ip' | head -1)
n=$(ls "$SINK" | wc -l)
printf '%s\n' "$mail" >"$SINK/$n-$id"
SH
chmod +x "$TMP/sink"
export SINK=$TMP/sunk && mkdir -p "$SINK"
watch=("$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --configs "$TMP/configs"
       --testcases "$TMP/cases" --tree "$repo" --matrix toy --accel tcg --outbox "$TMP/outbox"
       --sendmail "$TMP/sink" --once --since 2000-01-01)
outbox() { find "$TMP/outbox" -maxdepth 1 -name '*.eml' | wc -l; }
sunk() { ls "$SINK" | wc -l; }
states() { jq -r 'select(.phase) | "\(.revision) \(.phase) \(.note)"' "$TMP"/wd/watch/*/*.json; }

# Kill 1: right after recording the two revisions it saw: nothing answered.
expect_exit 137 env KSERIES_FAILPOINT=watch-seen "${watch[@]}"
[ "$(outbox)" = 0 ] && [ "$(sunk)" = 0 ] || fail "answers before any gate"
[ "$(jq -r 'select(.phase) | .phase' "$TMP"/wd/watch/*/*.json | sort | tr '\n' ' ')" = "seen seen " ] \
  || fail "the two revisions are not recorded as seen: $(jq -r 'select(.phase) | .phase' "$TMP"/wd/watch/*/*.json)"
# And from outside, kill -9 while v1's kernel boots (a guest that hangs):
# no answer; both revisions still there, v1 still to be gated.
FAKE_QEMU_MODE=hang setsid "${watch[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null &
watcher=$!
qemu() { pgrep -f "qemu-system-x86_64 .*$TMP/wd/runs/" | head -1; }
booting() { [ -n "$(qemu)" ]; }
at_exit "kill -9 $watcher 2>/dev/null"
wait_until 60 booting || { ps -eo pid,args | grep -E "qemu|sleep" >&2; fail "no boot started: $(cat "$TMP/err")"; }
kill -9 "$watcher"
wait "$watcher" 2>/dev/null || true
# The boot's own process group outlives kseries (as a hung QEMU would).
kill -9 -- "-$(ps -o pgid= -p "$(qemu)" | tr -d ' ')" 2>/dev/null || true
[ "$(outbox)" = 0 ] && [ "$(sunk)" = 0 ] || fail "answers after the kill during the gate"
[ "$(jq -r 'select(.phase) | .phase' "$TMP"/wd/watch/*/*.json | sort | tr '\n' ' ')" = "fetched fetched " ] \
  || fail "after the kill during the gate: $(states)"
# Kill 2: after v2's gate, before its answer: v1 answered (and sent) once.
expect_exit 137 env KSERIES_FAILPOINT=watch-gated:2 "${watch[@]}"
[ "$(outbox)" = 1 ] && [ "$(sunk)" = 1 ] || fail "after kill 2: $(outbox) in the outbox, $(sunk) sent"
# Kill 3: v2's answer written to the outbox, not yet recorded nor sent.
expect_exit 137 env KSERIES_FAILPOINT=watch-answered:1 "${watch[@]}"
[ "$(outbox)" = 2 ] && [ "$(sunk)" = 1 ] || fail "after kill 3: $(outbox) in the outbox, $(sunk) sent"
# The restart finishes v2 (sent once); a further poll has nothing to do.
expect_exit 0 "${watch[@]}"
expect_grep "^watch: 0 new revision(s)" "$TMP/out"
[ "$(outbox)" = 2 ] && [ "$(sunk)" = 2 ] || fail "after the restart: $(outbox) in the outbox, $(sunk) sent"
expect_exit 0 "${watch[@]}"
expect_grep "^watch: 0 new revision(s), 0 answer(s)" "$TMP/out"
[ "$(outbox)" = 2 ] && [ "$(sunk)" = 2 ] || fail "a poll with nothing new sent again: $(sunk)"
[ "$(ls "$SINK" | sed 's/^[0-9]*-//' | sort -u | wc -l)" = 2 ] || fail "a Message-ID was sent twice: $(ls "$SINK")"

python3 - "$TMP/outbox" "$v1" "$v2" "$INBOX_ADDR" <<'PY' || fail "the answers are not what the list expects"
import email, email.policy, glob, re, sys
outbox, v1, v2, inbox = sys.argv[1:]
mails = {}
for path in glob.glob(outbox + "/*.eml"):
    with open(path, "rb") as f:
        m = email.message_from_binary_file(f, policy=email.policy.default)
    mails[m["In-Reply-To"]] = m
assert set(mails) == {"<%s>" % v1, "<%s>" % v2}, list(mails)
for version, mid in ((1, v1), (2, v2)):
    m = mails["<%s>" % mid]
    # The thread: the revision last (v2 answers v1, so v1 comes first).
    assert m["References"].split()[-1] == "<%s>" % mid, m["References"]
    assert m["Subject"] == "Re: [PATCH v%d 0/2] toy: the toy series" % version, m["Subject"]
    # The cover letter's sender (format-patch: the committer).
    assert m["To"].addresses[0].addr_spec == "committer@example.com", m["To"]
    assert m["Cc"].addresses[0].addr_spec == inbox, m["Cc"]
    assert m["Message-ID"] and m["Date"], m
    body = m.get_content()
    assert "kseries tested change-id 20261202-toy-series-0123456789ab v%d" % version in body, body
    assert "\nreproduce:\n  kseries gate " in body and "--inbox http://127.0.0.1:" in body, body
    # The run by its ID, not by a path of the machine that ran it.
    assert re.search(r"\nrun: \d{8}-\d{6}-watch-gate(-\d+)?/\n", body) and "/wd/" not in body, body
    assert "/tmp/" not in body, body
    assert "--tree LINUX" in body and "(LINUX: a kernel tree that has commit " in body, body
    assert "verdict: PASS" in body, body
assert str(mails["<%s>" % v2]["References"]).split() == ["<%s>" % v1, "<%s>" % v2], mails["<%s>" % v2]["References"]
v2_body = mails["<%s>" % v2].get_content()
v1_body = mails["<%s>" % v1].get_content()
# v2: its slowdown against v1 first, the comparison and the timing table.
assert v2_body.split("\n")[2].startswith("WARNING: this revision is slower than the previous one: toy demo "), v2_body
assert "revisions " in v2_body and "timing, the newer revision against the older" in v2_body, v2_body
assert "reference: the previous revision, change-id 20261202-toy-series-0123456789ab v1" in v2_body, v2_body
assert "--series '%s#v1'" % v1 in v2_body and "--series '%s#v2'" % v2 in v2_body, v2_body
assert "WARNING" not in v1_body and "no earlier revision seen" in v1_body, v1_body
PY
# The answer's reproduce: block, run as it is (kseries gate by message-id
# through b4), judges v2 as the watch did.
reproduce=$(python3 - "$TMP/outbox" "$v2" <<'PY'
import email, email.policy, glob, sys
for path in glob.glob(sys.argv[1] + "/*.eml"):
    m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    if m["In-Reply-To"] == "<%s>" % sys.argv[2]:
        body = m.get_content()
        print(body.split("\nreproduce:\n  ", 1)[1].split("\n", 1)[0])
PY
)
mkdir -p "$TMP/bin" && ln -s "$(realpath "$KSERIES")" "$TMP/bin/kseries"
# Its placeholders for this machine's tree and directories filled in.
reproduce=$(printf '%s' "$reproduce" | sed "s|--tree LINUX|--tree $repo|; s|--configs KERNEL_CONFIGS|--configs $TMP/configs|; s|--testcases TESTCASES|--testcases $TMP/cases|")
expect_exit 0 env PATH="$TMP/bin:$PATH" sh -c "$reproduce"
expect_grep "^  verdict: PASS, warning: toy demo .* slower than 20261202-toy-series-0123456789ab/v1" "$TMP/out"

# --match: a change-id none of them has takes nothing (both ignored, no
# gate); a file v2 and v1 touch takes both.
expect_exit 0 "${watch[@]/$TMP\/outbox/$TMP/outbox2}" --match change-id:20261202-other-0123456789ab
expect_grep "^watch: 2 new revision(s), 0 answer(s)" "$TMP/out"
[ -z "$(ls "$TMP/outbox2")" ] || fail "a revision --match does not select was answered"
expect_exit 0 "${watch[@]/$TMP\/outbox/$TMP/outbox3}" --match file:speed --match subject:nothing
expect_grep "^watch: 2 new revision(s), 2 answer(s)" "$TMP/out"
echo "PASS"
