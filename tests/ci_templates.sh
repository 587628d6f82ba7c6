# The CI templates (ci/templates/: GitHub Actions, GitLab CI) are well-formed
# YAML with the sharded-gate shape (plan -> gate --shard per shard -> merge
# with JUnit), and every kseries command line they hold names a command
# `kseries --help` lists, with options that command accepts. A template
# broken on purpose (bad YAML, an unknown command, an unknown option) fails.
source "$(dirname "$0")/lib.bash"
/usr/bin/python3 -c 'import yaml' 2>/dev/null \
  || { echo "skipped: python3-yaml is not installed"; exit 77; }
lint() { /usr/bin/python3 "$SRC/tests/ci_templates.py" "$KSERIES" "$@"; }
templates=("$SRC"/ci/templates/*.yml)
[ ${#templates[@]} = 2 ] || fail "expected 2 templates, found: ${templates[*]}"
expect_exit 0 lint "${templates[@]}"

# The lint can fail: each break of a copy is caught.
gh=$SRC/ci/templates/github-actions.yml gl=$SRC/ci/templates/gitlab-ci.yml
sed 's/"$KSERIES" merge/"$KSERIES" mrege/' "$gh" >"$TMP/a.yml"
expect_exit 1 lint "$TMP/a.yml"
expect_grep "'kseries mrege' is not a kseries command" "$TMP/out"
sed 's/--shard "\$SHARD"/--shards "$SHARD"/' "$gl" >"$TMP/b.yml"
expect_exit 1 lint "$TMP/b.yml"
expect_grep "'kseries gate' has no option --shards" "$TMP/out"
sed 's/^  merge:$/  merge: [/' "$gh" >"$TMP/c.yml"
expect_exit 1 lint "$TMP/c.yml"
expect_grep "not well-formed YAML" "$TMP/out"
sed 's/"2\/3", "3\/3"/"2\/3"/' "$gl" >"$TMP/d.yml"
expect_exit 1 lint "$TMP/d.yml"
expect_grep "is not \['1/3', '2/3', '3/3'\]" "$TMP/out"
sed 's/fromJSON(needs.plan.outputs.shards)/["1\/1"]/' "$gh" >"$TMP/e.yml"
expect_exit 1 lint "$TMP/e.yml"
expect_grep "not generated from the plan job" "$TMP/out"
echo "PASS"
