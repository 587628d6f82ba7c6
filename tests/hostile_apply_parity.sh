# The diff applier against git am, on the classes of issue 32 that were
# applied wrongly without a word: a hunk whose header counts fewer lines than
# it has (was an empty commit; git am: corrupt patch), a MIME multipart mail
# (was committed with its boundaries and =3D; then refused; now decoded with
# GMime and applied as git am applies it), "new file" over an existing
# path (was prepended), a diff without mode lines on an executable (was reset
# to 100644) and a name component over 255 bytes (applied, then the checkout
# failed). Each is either applied exactly as git am applies it (same tree)
# or refused with a reason and no branch.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
printf '#!/bin/sh\necho one\necho two\n' >"$TMP/toy/run.sh"
chmod +x "$TMP/toy/run.sh"
git -C "$TMP/toy" add run.sh && git -C "$TMP/toy" commit -q -m "toy: a script"
base=$(git -C "$TMP/toy" rev-parse HEAD)

# A one-patch series from the commit made by running "$@" in a clone at base.
patch_of() {  # patch_of NAME CMD...: $TMP/NAME.mbox
  local name=$1; shift
  rm -rf "$TMP/work" && git clone -q "$TMP/toy" "$TMP/work"
  (cd "$TMP/work" && "$@" && git add -A && git commit -q -m "toy: $name")
  git -C "$TMP/work" format-patch -q --stdout --base="$base" HEAD~1 >"$TMP/$name.mbox"
}
# What git am makes of the mbox: a tree id, or "refused".
git_am_tree() {
  rm -rf "$TMP/am" && git clone -q "$TMP/toy" "$TMP/am"
  if git -C "$TMP/am" am -q "$1" >/dev/null 2>&1; then
    git -C "$TMP/am" rev-parse 'HEAD^{tree}'
  else
    echo refused
  fi
}
apply() {  # apply WANT NAME
  expect_exit "$1" "$KSERIES" apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" \
    --series "$TMP/$2.mbox" --branch "parity/$2"
}
no_branch() {
  git --git-dir "$TMP/wd/repo.git" show-ref --verify -q "refs/heads/parity/$1" 2>/dev/null &&
    fail "$1: a refused patch left a branch"
  return 0
}
# refused NAME PATTERN: kseries refuses, saying PATTERN; git am refuses too
# unless SAYS_GIT_AM is "applies" (then kseries' refusal is the rule's other half).
refused() {
  apply "1|2" "$1"
  grep -q -- "$2" "$TMP/out" "$TMP/err" ||
    { cat "$TMP/out" "$TMP/err"; fail "$1: refused without saying '$2'"; }
  no_branch "$1"
  local am
  am=$(git_am_tree "$TMP/$1.mbox")
  [ "$am" = refused ] || [ "${SAYS_GIT_AM:-}" = applies ] ||
    fail "$1: git am applies it ($am), kseries refused it"
}
same_as_git_am() {  # same_as_git_am NAME
  apply 0 "$1"
  local ours theirs
  ours=$(git --git-dir "$TMP/wd/repo.git" rev-parse "parity/$1^{tree}")
  theirs=$(git_am_tree "$TMP/$1.mbox")
  [ "$ours" = "$theirs" ] || fail "$1: kseries made tree $ours, git am $theirs"
}

# An overlong hunk: the header counts 2 lines of a 7-line hunk.
patch_of overlong sed -i 's/^line 10$/line ten/' file.txt
sed -i 's/^@@ -7,7 +7,7 @@/@@ -7,2 +7,2 @@/' "$TMP/overlong.mbox"
grep -q '^@@ -7,2 +7,2 @@' "$TMP/overlong.mbox" || fail "the overlong hunk was not made"
refused overlong "hunk"

# A MIME multipart mail: the patch as a quoted-printable text/plain part.
patch_of plain sed -i 's/^line 30$/line = thirty/' file.txt
python3 - "$TMP/plain.mbox" "$TMP/multipart.mbox" <<'EOF'
import email, email.policy, sys
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
raw = open(sys.argv[1], "rb").read()
first, rest = raw.split(b"\n", 1)
msg = email.message_from_bytes(rest, policy=email.policy.compat32)
outer = MIMEMultipart()
for key in ("From", "Date", "Subject"):
    outer[key] = msg[key]
part = MIMEText(msg.get_payload(), "plain", "utf-8")
del part["Content-Transfer-Encoding"]
part["Content-Transfer-Encoding"] = "quoted-printable"
import quopri
part.set_payload(quopri.encodestring(msg.get_payload().encode()).decode())
outer.attach(part)
open(sys.argv[2], "wb").write(first + b"\n" + outer.as_bytes() + b"\n")
EOF
grep -q '=3D' "$TMP/multipart.mbox" || fail "the multipart mail has no quoted-printable"
# Decoded as git mailinfo decodes it (GMime): the same tree as git am.
same_as_git_am multipart

# "new file" over a path the tree has.
patch_of newfile sh -c 'echo created >brand-new.txt'
sed -i 's#brand-new.txt#file.txt#g' "$TMP/newfile.mbox"
refused newfile "file.txt"

# No mode lines on an executable: git am keeps 100755.
patch_of nomode sed -i 's/echo two/echo 2/' run.sh
sed -i 's/^\(index [0-9a-f]*\.\.[0-9a-f]*\) 100755$/\1/' "$TMP/nomode.mbox"
grep -q '100755' "$TMP/nomode.mbox" && fail "the mode line is still there"
same_as_git_am nomode

# A name component of 256 bytes (no file system here can hold it).
long=$(printf 'n%.0s' $(seq 256))
patch_of longname sh -c 'echo x >short-name.txt'
sed -i "s#short-name.txt#$long#g" "$TMP/longname.mbox"
refused longname "255"
echo "ok: each hostile diff applied as git am applies it, or refused with a reason"
