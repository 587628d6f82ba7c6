# kseries' intake against git's and b4's on real mail. tests/data/real-mail
# holds threads of a public list archive (nvdimm@lists.linux.dev, public-inbox
# v2 epoch 0; SOURCES names each message's epoch commit), chosen for what
# broke intake before: a "--" signature right after the last hunk, b4's
# "---"/base-commit:/change-id: footer, an unnumbered cover letter, a vN
# cover over unversioned patches, an empty new file, signed, multipart and
# bot replies, reviews that paste a diff, a
# newer revision posted in reply to the older, quoted-printable bodies, an
# ISO-8859-1 body, non-ASCII authors, in-body From:, a traditional (non-git)
# diff. Every message goes into
# a local public-inbox (as lore serves it), then for each thread:
#   msgid:  `b4 am` + `git am`   against  kseries --series MSGID --inbox URL
#   thread: `b4 am -T` + `git am` against  kseries --series t.mbox (lore's
#           thread mbox, replies and older revisions included)
#   raw:    `git am` (mailsplit, mailinfo, apply) of the patches b4 took, cut
#           byte for byte out of the archive's thread  against  kseries on
#           the same file
# Each pair applies onto the same base, made from the patches themselves
# (tests/tools/synth_base.py), and must agree on patch count, authors,
# dates, messages, numstat and trees (tests/tools/mail_parity.py). A
# difference fails the test unless tests/data/real-mail/allow-list names it
# with its reason; an allow-list line whose difference is gone fails too.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/inbox.bash"
skip_unless_installed jq gzip
DATA=$SRC/tests/data/real-mail
TOOLS=$SRC/tests/tools
git config --global user.name parity
git config --global user.email parity@invalid
git config --global b4.attestation-policy off

inbox_start
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=b4.midmask GIT_CONFIG_VALUE_0="$INBOX_URL/%s" \
  GIT_CONFIG_KEY_1=b4.linkmask GIT_CONFIG_VALUE_1="$INBOX_URL/%s"
mkdir -p "$TMP/mails"
python3 "$TOOLS/mail_parity.py" split "$DATA" "$TMP/mails"
inbox_add "$TMP"/mails/*
public-inbox-index "$TMP/inbox" >/dev/null 2>&1 || true

# b4 FLAGS NAME ROOT: b4 am's mbox of the thread, in $TMP/b4/NAME$FLAGS/ref.mbx.
b4_am() {
  local out=$TMP/b4/$2$1
  mkdir -p "$out"
  (cd "$out" && timeout 120 b4 am $1 -C -o . -n ref "$3") >"$out.log" 2>&1 || true
  [ -f "$out/ref.mbx" ] || { cat "$out.log"; fail "$2: b4 am $1 took no series"; }
}

compare() {  # compare NAME MODE MAIL_PARITY-ARGS...
  local name=$1 mode=$2
  shift 2
  python3 "$TOOLS/mail_parity.py" "$@" >"$TMP/$name.$mode.json" 2>"$TMP/$name.$mode.err" ||
    { cat "$TMP/$name.$mode.err"; fail "$name $mode: mail_parity.py failed"; }
  printf '%s %s %s\t%s\n' "$name" "$mode" "$(jq -r .verdict "$TMP/$name.$mode.json")" \
    "$(jq -r .detail "$TMP/$name.$mode.json" | tr '\n\t' '  ' | cut -c1-600)" >>"$TMP/results"
}

: >"$TMP/results"
while read -r name root; do
  case "$name" in ''|'#'*) continue ;; esac
  b4_am "" "$name" "$root"
  b4_am "-T" "$name" "$root"
  curl -sf "$INBOX_URL/$root/t.mbox.gz" | gzip -d >"$TMP/$name.t.mbox" ||
    fail "$name: no t.mbox.gz"
  for mode in msgid thread raw; do
    case $mode in
      msgid) set -- compare "$KSERIES" "$TMP/w/$name-$mode" "$TMP/b4/$name/ref.mbx" -- \
               --series "$root" --inbox "$INBOX_URL" ;;
      thread) set -- compare "$KSERIES" "$TMP/w/$name-$mode" "$TMP/b4/$name-T/ref.mbx" -- \
               --series "$TMP/$name.t.mbox" ;;
      raw) sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$TMP/b4/$name-T/ref.mbx" >"$TMP/$name.ids"
           python3 "$TOOLS/mail_parity.py" extract "$DATA/$name/thread.mbox.gz" "$TMP/$name.ids" \
             "$TMP/$name.raw.mbox"
           set -- --mboxrd compare "$KSERIES" "$TMP/w/$name-$mode" "$TMP/$name.raw.mbox" -- \
               --series "$TMP/$name.raw.mbox" ;;
    esac
    compare "$name" "$mode" "$@"
  done
done <"$DATA/roots"

# Every difference listed (name, mode, verdict), every listed one still there.
awk '!/^#/ && NF >= 4 {print $1, $2, $3}' "$DATA/allow-list" | sort >"$TMP/allowed"
awk -F'\t' '{split($1, f, " "); if (f[3] != "same" && f[3] != "both-refuse") print f[1], f[2], f[3]}' \
  "$TMP/results" | sort >"$TMP/differs"
unlisted=$(comm -23 "$TMP/differs" "$TMP/allowed")
stale=$(comm -13 "$TMP/differs" "$TMP/allowed")
cat "$TMP/results"
cut -f1 "$TMP/results" | awk '{n[$3]++} END {for (v in n) printf "  %s: %d\n", v, n[v]}' | sort
if [ -n "$unlisted" ]; then
  while read -r name mode verdict; do
    grep "^$name $mode " "$TMP/results" >&2
  done <<<"$unlisted"
  fail "differences from git am / b4 am that the allow-list does not name: $(tr '\n' ';' <<<"$unlisted")"
fi
[ -z "$stale" ] || fail "allow-list lines whose difference is gone: $(tr '\n' ';' <<<"$stale")"
echo "ok: $(grep -c . "$TMP/results") readings of $(grep -cv '^#' "$DATA/roots") real threads" \
  "agree with git am / b4 am, or differ only as the allow-list says"
