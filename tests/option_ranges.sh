# Numeric and list options are checked against their ranges at parse time
# (exit 2 naming the option and the value as typed), branch names as git
# checks them, --junit only where a command has it and before "--", and a
# --workdir never inside the user's --tree.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/good" --base="$base" HEAD~2
(cd "$TMP/good" && ls *.patch >series)
apply=("$KSERIES" apply --workdir "$TMP/wd" --series "$TMP/good" --tree "$TMP/toy" --base "$base")
boot=("$KSERIES" boot --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" --case memmap-timing)
refused() {  # refused PATTERN CMD...: exit 2, PATTERN on stderr
  local pattern=$1; shift
  expect_exit 2 "$@"
  expect_grep "$pattern" "$TMP/err"
}
refused "--upto -1: out of range" "${apply[@]}" --upto -1
refused "--max-patch-bytes -1: out of range" "${apply[@]}" --max-patch-bytes -1
refused "--rebinds 0: out of range" "${boot[@]}" --rebinds 0
refused "--jobs 0: out of range" "${boot[@]}" -j 0
refused "--timeout -5: out of range" "${boot[@]}" --timeout -5
refused "--boots 0: out of range" "${boot[@]}" --boots 0
refused "--setups ,: an empty item" "${boot[@]}" --setups ,
refused "holds a space" "${boot[@]}" --args 'x=1 init=/bin/sh'
refused "--shards 100000000: out of range" "$KSERIES" plan --workdir "$TMP/wd" \
  --series "$TMP/good" --shards 100000000
refused "--branch 'HEAD' is not a valid git branch name" "${apply[@]}" --branch HEAD
refused "--branch '-x' is not a valid git branch name" "${apply[@]}" --branch=-x
# --junit: not for a command without it, not after "--".
expect_exit 2 "$KSERIES" plan --workdir "$TMP/wd" --series "$TMP/good" --junit "$TMP/plan.xml"
[ ! -e "$TMP/plan.xml" ] || fail "plan (no --junit option) wrote $TMP/plan.xml"
expect_exit 2 "${apply[@]}" -- --junit "$TMP/after.xml"
[ ! -e "$TMP/after.xml" ] || fail "a --junit after -- was written"
# A work directory inside the user's tree.
refused "is inside --tree" "$KSERIES" apply --workdir "$TMP/toy/.kseries" --series "$TMP/good" \
  --tree "$TMP/toy" --base "$base"
[ ! -e "$TMP/toy/.kseries" ] || fail "the work directory was created inside the tree"
# The same options in range still run.
expect_exit 0 "${apply[@]}" --upto 1 --max-patch-bytes 100000 --branch ok-1
echo "PASS"
