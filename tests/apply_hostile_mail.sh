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
[ "$(git --git-dir "$store" log -1 --format=%an long-word)" = "$long" ] || fail "name lost"
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

git --git-dir "$store" fsck --strict --no-dangling 2>"$TMP/fsck" || { cat "$TMP/fsck"; fail "fsck"; }
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"
