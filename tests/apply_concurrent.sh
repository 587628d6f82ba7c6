# Concurrent runs on one work directory. Three first runs on a fresh work
# directory all succeed (they raced on repo.git/config.lock). Two runs with
# the same --branch and different series: exactly one records its branch,
# the other fails (exit 2) saying so; neither result is silently lost.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/one" --base="$base" HEAD~2
(cd "$TMP/one" && ls *.patch >series)
mkdir "$TMP/other"
for f in "$TMP"/one/*.patch; do
  sed 's/^Subject: \(.*\)/Subject: \1 (other)/' "$f" >"$TMP/other/$(basename "$f")"
done
cp "$TMP/one/series" "$TMP/other/series"
run() {  # run WORKDIR SERIES BRANCH TAG: in the background, exit code to $TMP/TAG.rc
  ( set +e; "$KSERIES" apply --workdir "$1" --series "$TMP/$2" --tree "$TMP/toy" --base "$base" \
      --branch "$3" >"$TMP/$4.out" 2>"$TMP/$4.err"; echo $? >"$TMP/$4.rc" ) &
}

for round in 1 2 3 4 5; do
  wd=$TMP/fresh-$round
  run "$wd" one c1 r1; run "$wd" one c2 r2; run "$wd" other c3 r3
  wait
  for i in 1 2 3; do
    [ "$(cat "$TMP/r$i.rc")" = 0 ] || { cat "$TMP/r$i.err"; fail "round $round: run $i failed"; }
    git --git-dir "$wd/repo.git" rev-parse -q --verify "refs/heads/c$i" >/dev/null \
      || fail "round $round: branch c$i missing"
  done
  ls -d "$wd"/repo.git.new-* 2>/dev/null && fail "round $round: a scratch repository was left"
done

wd=$TMP/shared
expect_exit 0 "$KSERIES" apply --workdir "$wd" --series "$TMP/one" --tree "$TMP/toy" --base "$base"
for round in $(seq 1 10); do
  run "$wd" one "same-$round" a; run "$wd" other "same-$round" b
  wait
  codes="$(cat "$TMP/a.rc") $(cat "$TMP/b.rc")"
  case $codes in
    "0 2") winner=a loser=b ;;
    "2 0") winner=b loser=a ;;
    *) cat "$TMP/a.err" "$TMP/b.err"; fail "round $round: exit codes $codes, want one 0 and one 2" ;;
  esac
  grep -q -e "already exists at" -e "by another process meanwhile" "$TMP/$loser.err" \
    || { cat "$TMP/$loser.err"; fail "round $round: the loser does not say why"; }
  recorded=$(git --git-dir "$wd/repo.git" rev-parse "same-$round")
  grep -q "^branch same-$round $recorded " "$TMP/$winner.out" \
    || fail "round $round: the branch is not the winner's result"
done
pgrep -f "$TMP" >/dev/null && fail "a process survived"
echo "PASS"
