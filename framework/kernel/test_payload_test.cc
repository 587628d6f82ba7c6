#include "kernel/test_payload.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "sys/files.h"
#include "testing/temp_dir.h"

namespace kseries::kernel {
namespace {

namespace fs = std::filesystem;
using testing::git;
using testing::put_file;

// Records the make; "builds" the payload's tar (or not) in OUT.
class FakeMake : public ProcessRunner {
 public:
  explicit FakeMake(int tars) : m_tars(tars) {}
  ProcessResult run(const ProcessSpec& spec) override {
    m_spec = spec;
    m_src_had = fs::exists(fs::path(arg("SRC")) / "tools" / "testing" / "selftests" / "mm" / "a.c");
    for (int i = 0; i < m_tars; ++i) {
      put_file(fs::path(arg("OUT")) / ("payload" + std::to_string(i) + ".tar"), "tar");
    }
    ProcessResult result;
    result.end = ProcessEnd::k_exited;
    result.exit_code = 0;
    return result;
  }
  std::string arg(const std::string& key) const {
    for (const auto& a : m_spec.argv) {
      if (a.starts_with(key + "=")) {
        return a.substr(key.size() + 1);
      }
    }
    return "";
  }
  ProcessSpec m_spec;
  bool m_src_had = false;

 private:
  int m_tars;
};

struct Fixture {
  testing::TempDir tmp;
  git::Session session;
  fs::path repo = tmp / "repo";
  fs::path payload = tmp / "testcases" / "kselftest";
  std::string commit;
  Fixture() {
    fs::create_directories(repo);
    git(repo, {"init", "-q", "-b", "main"});
    put_file(repo / "tools" / "testing" / "selftests" / "mm" / "a.c", "int main(){}\n");
    put_file(repo / "lib" / "test_hmm_uapi.h", "/* uapi */\n");
    put_file(repo / "mm" / "mm_init.c", "/* not exported */\n");
    git(repo, {"add", "-A"});
    git(repo, {"commit", "-q", "-m", "tree"});
    commit = git(repo, {"rev-parse", "HEAD"});
    put_file(payload / "Makefile",
             "# a payload\nKSERIES_EXPORT := tools/testing/selftests lib/test_hmm_uapi.h\nall:\n");
  }
  PayloadBuildSpec spec() const {
    return {tmp / "src", tmp / "build", payload, tmp / "out", "ccache gcc", 2, {}};
  }
};

TEST(TestPayload, APayloadIsAMakefileWithoutKbuild) {
  Fixture f;
  EXPECT_TRUE(is_test_payload(f.payload));
  put_file(f.payload / "Kbuild", "obj-m += x.o\n");
  EXPECT_FALSE(is_test_payload(f.payload));
  EXPECT_FALSE(is_test_payload(f.tmp / "nothing"));
}

TEST(TestPayload, ExportsOnlyTheNamedPathsOfTheCommitAndRunsTheMakefile) {
  Fixture f;
  git::Store store(f.tmp / "store.git");
  const git_oid commit = store.borrow_commit(f.repo, f.commit);
  FakeMake make(1);
  const fs::path tar = build_payload(f.spec(), store, commit, make);
  EXPECT_EQ(tar, f.tmp / "out" / "payload0.tar");
  EXPECT_TRUE(make.m_src_had);
  EXPECT_EQ(make.arg("KCC"), "ccache gcc");
  EXPECT_EQ(make.arg("JOBS"), "2");
  EXPECT_EQ(make.arg("KBUILD"), fs::absolute(f.tmp / "build").string());
  EXPECT_EQ(make.m_spec.argv[2], fs::absolute(f.payload / "Makefile").string());
  // The export is the build's input, not the payload; mm_init.c was never in it.
  EXPECT_FALSE(fs::exists(f.tmp / "out" / "src"));
}

TEST(TestPayload, APayloadIsExactlyOneTar) {
  Fixture f;
  git::Store store(f.tmp / "store.git");
  const git_oid commit = store.borrow_commit(f.repo, f.commit);
  for (int tars : {0, 2}) {
    FakeMake make(tars);
    try {
      build_payload(f.spec(), store, commit, make);
      FAIL() << tars << " tars accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::k_infrastructure);
      EXPECT_NE(std::string(e.what()).find("a payload is exactly one"), std::string::npos)
          << e.what();
    }
  }
}

TEST(TestPayload, TheExportLineIsCheckedAndEveryPathMustExist) {
  Fixture f;
  git::Store store(f.tmp / "store.git");
  const git_oid commit = store.borrow_commit(f.repo, f.commit);
  put_file(f.payload / "Makefile", "KSERIES_EXPORT := tools/nope\n");
  FakeMake make(1);
  EXPECT_THROW(build_payload(f.spec(), store, commit, make), Error);
  put_file(f.payload / "Makefile", "KSERIES_EXPORT := ../../etc\n");
  EXPECT_THROW(payload_exports(f.payload), Error);
  put_file(f.payload / "Makefile", "all:\n");
  EXPECT_THROW(payload_exports(f.payload), Error);
}

}  // namespace
}  // namespace kseries::kernel
