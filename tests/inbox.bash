# A real public-inbox archive for the scenarios (sourced after lib.bash):
# Debian's public-inbox 1.9, its state in $TMP (PI_CONFIG), served by
# public-inbox-httpd on 127.0.0.1 on a free port, stopped when the scenario
# ends. inbox_start sets INBOX_URL; inbox_add delivers mails to it.
skip_unless_installed b4 public-inbox-init public-inbox-mda public-inbox-httpd curl
export PI_CONFIG=$TMP/pi-config
INBOX_ADDR=toy@lists.example.org

inbox_start() {
  public-inbox-init -V2 toy "$TMP/inbox" http://127.0.0.1/toy "$INBOX_ADDR" >/dev/null 2>&1 \
    || fail "public-inbox-init failed"
  git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
  local port
  port=$(free_ports 1)
  setsid public-inbox-httpd -W0 -l "http://127.0.0.1:$port" \
    </dev/null >"$TMP/httpd.log" 2>&1 &
  INBOX_PID=$!
  at_exit "kill $INBOX_PID"
  INBOX_URL=http://127.0.0.1:$port/toy
  # An inbox with no message yet answers 404: any answer will do.
  wait_until 30 curl -s -o /dev/null "$INBOX_URL/new.atom" || { cat "$TMP/httpd.log"; fail "httpd did not start"; }
}

# inbox_add FILE...: each an RFC 5322 message (a format-patch file).
inbox_add() {
  local mail
  for mail in "$@"; do
    ORIGINAL_RECIPIENT=$INBOX_ADDR public-inbox-mda --no-precheck <"$mail" \
      || fail "public-inbox-mda refused $mail"
  done
}

# toy_revision REPO BASE VERSION OUTDIR [IN-REPLY-TO] "SUBJECT|COMMAND"...:
# a revision of the toy series as mails, cover letter (title "toy: the toy
# series", change-id 20261202-toy-series-0123456789ab) first, threaded to it;
# IN-REPLY-TO (a message-id) makes the revision a reply to an older one.
toy_revision() {
  local repo=$1 base=$2 version=$3 out=$4 reply=$5 step
  shift 5
  git -C "$repo" checkout -q -B "rev$version" "$base"
  for step in "$@"; do
    (cd "$repo" && eval "${step#*|}") && git -C "$repo" add -A &&
      git -C "$repo" commit -q -m "${step%%|*}" -m "Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
  done
  git -C "$repo" -c format.to="$INBOX_ADDR" format-patch -q --cover-letter --thread=shallow \
    -v"$version" -o "$out" --base="$base" "$base..rev$version"
  # format-patch names a cover letter by the second: two revisions made in
  # one would share its message-id.
  sed -i "s/<cover\./<cover-v$version./g" "$out"/v"$version"-*.patch
  # ... and a patch by its commit and the second: the same commit in two
  # revisions made in one second would too.
  sed -i "s/^\(Message-I[dD]: <\)\([0-9a-f]\{40\}\.\)/\1v$version-\2/" "$out"/v"$version"-*.patch
  if [ -n "$reply" ]; then
    sed -i "s/^\(Message-I[dD]: .*\)/\1\nIn-Reply-To: <$reply>\nReferences: <$reply>/" \
      "$out"/v"$version"-0000-cover-letter.patch
  fi
  sed -i "s/\*\*\* SUBJECT HERE \*\*\*/toy: the toy series/; s/\*\*\* BLURB HERE \*\*\*/The toy series, v$version./" \
    "$out"/v"$version"-0000-cover-letter.patch
  sed -i "s/^base-commit: .*/&\nchange-id: 20261202-toy-series-0123456789ab/" "$out"/v"$version"-0000-cover-letter.patch
  git -C "$repo" checkout -q main
}

# message_id FILE: its Message-Id without the angle brackets.
message_id() { sed -n 's/^Message-I[dD]: <\(.*\)>$/\1/p' "$1" | head -1; }
