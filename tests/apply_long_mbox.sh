# A long mbox (400 patches, one line each) applies in time that grows with
# its length, not faster: the objects of the whole chain go to the work
# directory as one pack, not as a loose object file per blob, tree and
# commit. (A 5,000-patch mbox took 125 s, 1,000 5 s: most of it in the file
# system creating those files, which costs more the more of them it has
# handed out; see ci/bench-mbox for the timings.) The count checked here is
# deterministic: loose object files and packs in the work directory.
source "$(dirname "$0")/lib.bash"
n=400
git init -q -b main "$TMP/history"
python3 - "$n" <<'EOF' | git -C "$TMP/history" fast-import --quiet
import sys
files_n, lines_n, n = 20, 100, int(sys.argv[1])
files = [[b"file %d line %d" % (f, l) for l in range(lines_n)] for f in range(files_n)]
w = sys.stdout.buffer.write
def commit(mark, msg, changed):
    w(b"commit refs/heads/main\nmark :%d\n" % mark)
    w(b"author Toy Author <toy@example.com> %d +0000\n" % (1700000000 + mark))
    w(b"committer Toy Committer <committer@example.com> %d +0000\n" % (1700000000 + mark))
    w(b"data %d\n%s\n" % (len(msg), msg))
    if mark > 1:
        w(b"from :%d\n" % (mark - 1))
    for f in changed:
        data = b"\n".join(files[f]) + b"\n"
        w(b"M 100644 inline src/f%02d.txt\ndata %d\n%s\n" % (f, len(data), data))
commit(1, b"toy base\n", range(files_n))
for i in range(n):
    f, l = i % files_n, (i // files_n) % lines_n
    files[f][l] += b" changed by patch %d" % (i + 1)
    commit(i + 2, b"toy: change line %d of f%02d\n" % (l, f), [f])
EOF
base=$(git -C "$TMP/history" rev-list --max-parents=0 main)
git -C "$TMP/history" format-patch -q --stdout --base="$base" "$base..main" >"$TMP/long.mbox"
# The user's tree has the base only: every object of the chain is new.
git -C "$TMP/history" branch -q base "$base"
git clone -q --no-local --single-branch --branch base "$TMP/history" "$TMP/toy"

expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" \
  --series "$TMP/long.mbox" --branch long
repo=$TMP/wd/repo.git
[ "$(git --git-dir "$repo" rev-list --count "$base..long")" = $n ] || fail "the branch lacks commits"
# The same tree as git's own history of the same changes.
[ "$(git --git-dir "$repo" rev-parse 'long^{tree}')" = "$(git -C "$TMP/history" rev-parse 'main^{tree}')" ] ||
  fail "the applied tree differs from git's"
git --git-dir "$repo" fsck --no-dangling --connectivity-only long >/dev/null 2>"$TMP/fsck" ||
  { cat "$TMP/fsck"; fail "git fsck: the store misses objects of the branch"; }

loose=$(find "$repo/objects" -path "$repo/objects/pack" -prune -o -path "$repo/objects/info" -prune \
  -o -type f -print | wc -l)
packs=$(find "$repo/objects/pack" -name '*.pack' | wc -l)
# 400 patches wrote over 1,600 objects (a blob, two trees, a commit each).
[ "$loose" = 0 ] || fail "$loose loose object files for $n patches (a file per object)"
[ "$packs" = 1 ] || fail "$packs packs for one apply of $n patches"
[ "$(git --git-dir "$repo" count-objects -v | sed -n 's/^in-pack: //p')" -ge $((4 * n)) ] ||
  fail "the pack holds fewer objects than the chain wrote"

# A second apply of the same series finds every object stored: no new pack.
expect_exit 0 "$KSERIES" apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" \
  --series "$TMP/long.mbox" --branch long
[ "$(find "$repo/objects/pack" -name '*.pack' | wc -l)" = 1 ] || fail "a re-apply wrote another pack"
echo "ok: $n patches, no loose object, one pack"
