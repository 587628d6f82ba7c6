# A mail that makes b4 fail (here: b4 wrapped to fail on one message-id as
# b4 0.12 does on some real mail, with a Python traceback) while the inbox
# serves it: the revision is refused once, with b4's reason, and not
# fetched again at every poll (issue 50: it was retried forever, reported
# as infrastructure); --status shows it and why; it is taken again when the
# watch's configuration (here its --match) or kseries' version changes, and
# then, with b4 fixed, gated and answered. The revision beside it is
# answered all along.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
source "$(dirname "$0")/watch_lib.bash"
watch_setup
add_revision 1
good=$cover
toy_revision "$repo" "$base" 1 "$TMP/mails/bad" "" "bad: rename a9|sed -i s/a9/A9/ a.c"
sed -i 's/^\(Message-I[dD]: <\)/\1bad-/; s/^\(In-Reply-To: <\|References: <\)/\1bad-/; s/toy: the toy series/bad: the bad series/' "$TMP"/mails/bad/*.patch
bad=$(message_id "$TMP/mails/bad/v1-0000-cover-letter.patch")
inbox_add "$TMP"/mails/bad/*.patch

mkdir -p "$TMP/b4bin"
cat >"$TMP/b4bin/b4" <<'SH'
#!/bin/sh
for a in "$@"; do
  if [ "$a" = "$B4_FAIL_ON" ]; then
    echo x >>"$B4_FAILED"
    printf 'Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/b4/__init__.py"\nUnicodeDecodeError: '"'"'utf-8'"'"' codec can'"'"'t decode byte 0xff\n' >&2
    exit 1
  fi
done
exec /usr/bin/b4 "$@"
SH
chmod +x "$TMP/b4bin/b4"
export B4_FAIL_ON=$bad B4_FAILED=$TMP/b4-failed
export PATH="$TMP/b4bin:$PATH"
phase_of() { jq -r "select(.message_id == \"$1\") | .phase" "$TMP"/wd/watch/*/*.json; }

expect_exit 0 "${watch[@]}" --once
expect_grep "^watch: 2 new revision(s), 1 answer(s)" "$TMP/out"
[ "$(phase_of "$bad")" = refused ] || fail "the bad revision: $(states)"
expect_grep "^watch: pending: refused '\[PATCH v1 0/1\] bad: the bad series' <$bad>: b4 could not take this thread, which the inbox serves (the mail's failure, not the inbox's): b4 am <$bad> .*UnicodeDecodeError.* (taken again when kseries or its --match changes)" "$TMP/out"
for poll in 2 3; do
  expect_exit 0 "${watch[@]}" --once
  expect_grep "^watch: 0 new revision(s), 0 answer(s)" "$TMP/out"
done
[ "$(wc -l <"$B4_FAILED")" = 1 ] || fail "b4 was run $(wc -l <"$B4_FAILED") times on the bad mail"
expect_exit 0 "$KSERIES" watch --workdir "$TMP/wd" --inbox "$INBOX_URL" --outbox "$TMP/outbox" --status
expect_grep "^watch: revisions: 1 answered, 1 refused" "$TMP/out"
expect_grep "^watch: pending: refused .*<$bad>: b4 could not take this thread" "$TMP/out"

# The configuration changes (a --match that takes both): taken again, b4
# fails again, refused again, once.
expect_exit 0 "${watch[@]}" --once --match subject:series
expect_grep "^watch: 1 revision(s) ignored or refused before are taken again" "$TMP/out"
[ "$(wc -l <"$B4_FAILED")" = 2 ] || fail "b4 was run $(wc -l <"$B4_FAILED") times on the bad mail"
[ "$(phase_of "$bad")" = refused ] || fail "the bad revision: $(states)"
expect_exit 0 "${watch[@]}" --once --match subject:series
[ "$(wc -l <"$B4_FAILED")" = 2 ] || fail "b4 was run $(wc -l <"$B4_FAILED") times on the bad mail"
# b4 fixed, and the configuration changes once more: answered.
unset B4_FAIL_ON
expect_exit 0 "${watch[@]}" --once --match subject:series --match subject:bad
expect_grep "^watch: 0 new revision(s), 1 answer(s)" "$TMP/out"
[ "$(phase_of "$bad")" = answered ] || fail "the bad revision: $(states)"
[ "$(phase_of "$good")" = answered ] || fail "the good revision: $(states)"
[ "$(sunk_count)" = 2 ] || fail "$(sunk_count) mails sent"
echo PASS
