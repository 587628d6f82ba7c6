# Hostile mail: lines long enough to overflow a recursive parser, forged
# commit headers, numbers out of range. Each is either applied cleanly or
# refused (exit 2) naming the file and line; never a crash.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/good" --base="$base" HEAD~2
first="$TMP/good/0001-toy-change-line-twenty.patch"
store="$TMP/wd/repo.git"

# series NAME SED-SCRIPT: a one-patch series made from the first toy patch.
series() {
  mkdir -p "$TMP/$1"
  sed 's#\[PATCH 1/2\]#[PATCH]#'"; $2" "$first" >"$TMP/$1/0001.patch"
  echo 0001.patch >"$TMP/$1/series"
}
apply() {  # apply EXIT NAME
  expect_exit "$1" "$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/$2" --tree "$TMP/toy" \
    --base "$base" --branch "$2"
}

# Lines of 50 KB (std::regex died of SIGSEGV at 40 KB): a Date: header, an
# encoded word, a commit-message line starting with "From ".
long=$(head -c 51200 /dev/zero | tr '\0' a)
series long-date "s/^Date: .*/& $long/"
apply 0 long-date
series long-word "s/^From: .*/From: =?utf-8?q?$long?= <w@example.com>/"
apply 0 long-word
# git am replaces a name over 60 bytes by the address: so does kseries (it must not crash).
[ "$(git --git-dir "$store" log -1 --format=%an long-word)" = "w@example.com" ] || fail "a 50 KB name not replaced by the address, as git am does"
series long-from "s/^The first patch.*/From $long/"
apply 0 long-from
git --git-dir "$store" log -1 --format=%B long-from | grep -q "^From a*$" || fail "message lost"
# Past the limits: refused naming the file and line.
series huge-header "s/^Date: .*/& $long$long/"
apply 2 huge-header
expect_grep "huge-header/0001.patch:3: header 'Date' is longer than 65536" "$TMP/err"
series huge-line "s/^The first patch.*/$long$long/"
apply 2 huge-line
expect_grep "huge-line/0001.patch:6: line is longer than 65536" "$TMP/err"

# Numbers out of range: refused naming the file and line, not "internal error: stoi".
series big-number 's#\[PATCH\]#[PATCH 1/99999999999]#'
apply 2 big-number
expect_grep "big-number/0001.patch:1: subject prefix '1/99999999999': patch count 99999999999 is out of range (at most 9999)" "$TMP/err"
series bad-hour "s/^Date: .*/Date: Mon, 30 Nov 2026 99:40:46 +0000/"
apply 2 bad-hour
expect_grep "bad-hour/0001.patch:1: message '\\[PATCH\\] toy: change line twenty' has no readable Date: header ('Mon, 30 Nov 2026 99:40:46 +0000')" "$TMP/err"

# Forged commit headers: an encoded newline in From: (header or in-body) or
# Subject:, a NUL in the message. Refused naming the file and line; nothing
# of them reaches the object store.
series forged-from "s/^From: .*/From: =?utf-8?q?Evil=0Acommitter_Mallory?= <e@x>/"
apply 2 forged-from
expect_grep "forged-from/0001.patch:1: the author name contains a line break" "$TMP/err"
series forged-address "s/^From: .*/From: =?utf-8?q?Evil_<e@x>_1_+0000=0Aparent_Mallory_<e@x?=>/"
# A name holding '<' or '>' is replaced by the address, as git am does: the
# forged line never reaches the commit.
apply 0 forged-address
[ "$(git --git-dir "$store" cat-file commit forged-address | grep -c '^parent')" = 1 ] ||
  fail "forged-address: a forged parent line reached the commit"
series forged-in-body "s/^The first patch.*/From: =?utf-8?q?Evil=0Agpgsig_Mallory?= <e@x>\n/"
apply 2 forged-in-body
expect_grep "forged-in-body/0001.patch:6: the author name contains a line break" "$TMP/err"
series forged-subject "s/^Subject: .*/Subject: [PATCH] =?utf-8?q?toy=0ASigned-off-by:_Mallory?=/"
apply 2 forged-subject
expect_grep "forged-subject/0001.patch:1: the subject contains a line break" "$TMP/err"
series nul-message 's/^The first patch/The first\x00patch/'
apply 2 nul-message
expect_grep "nul-message/0001.patch:6: the commit message contains a NUL byte" "$TMP/err"
series nul-from 's/^From: Toy/From: To\x00y/'
apply 2 nul-from
expect_grep "nul-from/0001.patch:2: a header contains a NUL byte" "$TMP/err"
for refused in forged-from forged-in-body forged-subject nul-message nul-from; do
  git --git-dir "$store" rev-parse -q --verify "refs/heads/$refused" >/dev/null \
    && fail "a branch was created for $refused"
done
git --git-dir "$store" cat-file --batch-all-objects --batch | grep -a -q Mallory \
  && fail "a forged header reached the object store"

# Raw header bytes declare no charset: what is not UTF-8 reads as Latin-1,
# as git am does, with a note; a declared Latin-1 message is converted. The
# commit is valid UTF-8.
series latin1 's/^Subject: \[PATCH\] toy/Subject: [PATCH] t\xf6y/; s/^The first patch/Andr\xe9: the first patch/; /^Date:/a Content-Type: text/plain; charset=ISO-8859-1'
apply 0 latin1
expect_grep "note: .*latin1/0001.patch:1: the subject: 1 byte(s) not UTF-8 and no charset declared: read as Latin-1" \
  "$TMP/err"
[ "$(git --git-dir "$store" log -1 --format=%s latin1)" = "töy: change line twenty" ] \
  || fail "subject not read as Latin-1"
git --git-dir "$store" log -1 --format=%B latin1 | grep -q "^André: the first patch" \
  || fail "Latin-1 message not converted"
git --git-dir "$store" cat-file commit latin1 | iconv -f UTF-8 -t UTF-8 >/dev/null \
  || fail "the commit is not valid UTF-8"

git --git-dir "$store" fsck --strict --no-dangling 2>"$TMP/fsck" || { cat "$TMP/fsck"; fail "fsck"; }
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"
