// Oracle test for the frontend readers and writers against Debian's SPIRV-Tools (issue 3): over every
// checked-in .spv fixture that spirv-val accepts, our `dis` (readBinary + writeText without friendly
// names) must equal `spirv-dis --raw-id` character for character, and our `as` (readText + writeBinary)
// of spirv-dis text must equal the words spirv-as produces from the same text. The corpus holds the
// clang-15 + llvm-spirv-15 kernels at -O0 and -O2 and the hand-written examples.
//
// With friendly names our `dis` must equal spirv-dis's default output too (its names for types and
// constants: %uint, %_ptr_CrossWorkgroup_uint, %uint_0, ...), over every fixture spirv-dis reads,
// including those spirv-val rejects (llvm-spirv-15's -O2 block order). The text reader is checked on
// that friendly text: it numbers named ids as `spirv-as --preserve-numeric-ids` does, so the words
// must be the same too.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/module.h"

#include "frontend_test_util.h"

using namespace spvhls::spirv;
using namespace spvhls::testutil;
namespace fs = std::filesystem;

namespace {

// SPIRV-Tools Assembler (tool 7), version 0: what spirv-as writes as the header's generator word.
constexpr uint32_t kSpirvAsGenerator = 7u << 16;

// Quotes a path for /bin/sh.
std::string sh(const fs::path& p) {
  std::string out = "'";
  for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool run(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()) == 0; }

// A fresh directory under the system temp dir, removed at scope exit.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "spvhls-oracle-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The first line where two texts differ, for a readable failure message.
std::string firstDifference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      auto lineOf = [&](const std::string& s) { return s.substr(start, s.find('\n', start) - start); };
      return fmt::format("line {}:\n  ours:   {}\n  oracle: {}", line, lineOf(a), lineOf(b));
    }
    if (a[i] == '\n') ++line, start = i + 1;
  }
  return fmt::format("one text is a prefix of the other (sizes {} and {})", a.size(), b.size());
}

std::string firstWordDifference(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return fmt::format("word {}: ours {:#010x}, spirv-as {:#010x}", i, a[i], b[i]);
  return fmt::format("word counts differ: ours {}, spirv-as {}", a.size(), b.size());
}

} // namespace

TEST_CASE("frontend oracle: spvhls dis/as agree with spirv-dis/spirv-as over the fixture corpus") {
  // SPIRV-Tools is a hard dependency (scripts/setup.sh installs it): no silent skip.
  REQUIRE_MESSAGE((run("spirv-dis --version") && run("spirv-as --version") && run("spirv-val --version")),
                  "SPIRV-Tools (spirv-as, spirv-dis, spirv-val) not found; run scripts/setup.sh");
  const fs::path data = fs::path(SPVHLS_SOURCE_DIR) / "tests/unit/data";
  std::vector<fs::path> corpus;
  for (const char* dir : {"frontend", "lower", "interp"})
    for (const auto& e : fs::directory_iterator(data / dir))
      if (e.path().extension() == ".spv") corpus.push_back(e.path());
  std::sort(corpus.begin(), corpus.end());

  TempDir tmp;
  int used = 0, optimized = 0, named = 0;
  std::vector<std::string> skipped;
  for (size_t n = 0; n < corpus.size(); ++n) {
    const fs::path& spv = corpus[n];
    const std::string label = fs::relative(spv, data).string();
    const fs::path raw = tmp.path / fmt::format("{}.raw.spvasm", n);
    const fs::path friendly = tmp.path / fmt::format("{}.spvasm", n);
    // Friendly names: our dis equals spirv-dis on every fixture it reads.
    if (run(fmt::format("spirv-dis {} -o {}", sh(spv), sh(friendly)))) {
      CAPTURE(label);
      const std::string ours = writeText(readBinary(readBytes(spv), spv.string()));
      const std::string theirs = readString(friendly);
      CHECK_MESSAGE(ours == theirs, firstDifference(ours, theirs));
      ++named;
    }
    // Fixtures that exercise what SPIRV-Tools 2023.1 does not know (or rejects) are not oracle input.
    if (!run(fmt::format("spirv-val {}", sh(spv))) ||
        !run(fmt::format("spirv-dis --raw-id {} -o {}", sh(spv), sh(raw))) ||
        !run(fmt::format("spirv-dis {} -o {}", sh(spv), sh(friendly)))) {
      skipped.push_back(label);
      continue;
    }
    ++used;
    if (label.find("O2") != std::string::npos) ++optimized;
    CAPTURE(label);

    const std::vector<uint8_t> bytes = readBytes(spv);
    const Module fromBinary = readBinary(bytes, spv.string());
    const std::string rawText = readString(raw);

    // dis: our text equals spirv-dis --raw-id exactly.
    const std::string ours = writeText(fromBinary, TextOptions{.friendlyNames = false, .header = true});
    CHECK_MESSAGE(ours == rawText, firstDifference(ours, rawText));

    const std::string targetEnv = fmt::format("--target-env spv1.{}", (fromBinary.version >> 8) & 0xff);
    auto spirvAs = [&](const fs::path& text, const std::string& flags) {
      const fs::path out = tmp.path / fmt::format("{}.as.spv", n);
      REQUIRE(run(fmt::format("spirv-as {} {} {} -o {}", targetEnv, flags, sh(text), sh(out))));
      std::vector<uint32_t> words = wordsOf(readBytes(out));
      REQUIRE(words.size() >= 5);
      return words;
    };

    // as: our words equal `spirv-as --preserve-numeric-ids`, on raw-id text (numeric ids are kept) and
    // on spirv-dis's friendly text (named ids get the lowest free numbers, in the same order).
    // The header differs by design: spirv-as ignores the "; Generator:" and "; Bound:" comments (it
    // writes its own generator and max id + 1), while readText restores them so that
    // binary -> text -> binary is the identity. Check that difference exactly, then compare the rest.
    for (const fs::path& text : {raw, friendly}) {
      CAPTURE(text.filename().string());
      std::vector<uint32_t> expected = spirvAs(text, "--preserve-numeric-ids");
      std::vector<uint32_t> got = writeBinary(readText(readString(text), text.string()));
      REQUIRE(got.size() >= 5);
      CHECK(expected[2] == kSpirvAsGenerator);
      CHECK(got[2] == fromBinary.generator);
      CHECK(got[3] == std::max(expected[3], fromBinary.bound));
      got[2] = expected[2];
      got[3] = expected[3];
      CHECK_MESSAGE(got == expected, firstWordDifference(got, expected));
    }
    // Our binary writer reproduces the input file word for word.
    CHECK(writeBinary(fromBinary) == wordsOf(bytes));
  }
  MESSAGE(fmt::format("oracle corpus: {} of {} .spv files used ({} at -O2); skipped (spirv-val or "
                      "spirv-dis reject them): {}",
                      used, corpus.size(), optimized, fmt::join(skipped, ", ")));
  CHECK(used >= 10);
  CHECK(optimized >= 1);
  CHECK(named >= used); // every module the full oracle takes, and those spirv-val rejects
}

TEST_CASE("frontend oracle: named and numeric ids mixed, without a header, assemble like spirv-as") {
  REQUIRE_MESSAGE(run("spirv-as --version"), "SPIRV-Tools (spirv-as) not found; run scripts/setup.sh");
  // Names before the numeric ids they must skip, ids in strings and comments, hex and octal numeric
  // ids (%012 is 10, %08 a name), a result id first seen with a result type first seen (spirv-as
  // numbers the type first).
  const char* texts[] = {
      R"(OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k %2"
OpName %x "%3" ; %4
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%c = OpConstant %uint 7
%k = OpFunction %void None %fn
%lab = OpLabel
%x = OpIAdd %uint %c %c
%1 = OpIAdd %uint %x %c
%y = OpIAdd %uint %x %1
%0x6 = OpIAdd %uint %y %y
%012 = OpIAdd %uint %y %0x6
%z = OpIAdd %uint %12 %6
%08 = OpIAdd %uint %z %z
OpReturn
OpFunctionEnd
)",
      "OpCapability Kernel\nOpMemoryModel Logical OpenCL\n%a = OpIAdd %b %c %d\n%e = OpTypeInt 32 0\n"};
  TempDir tmp;
  for (size_t n = 0; n < std::size(texts); ++n) {
    CAPTURE(n);
    const fs::path text = tmp.path / fmt::format("{}.spvasm", n), out = tmp.path / fmt::format("{}.spv", n);
    std::ofstream(text) << texts[n];
    REQUIRE(run(
        fmt::format("spirv-as --target-env spv1.4 --preserve-numeric-ids {} -o {}", sh(text), sh(out))));
    std::vector<uint32_t> expected = wordsOf(readBytes(out));
    std::vector<uint32_t> got = writeBinary(readText(texts[n], text.string()));
    REQUIRE(expected.size() >= 5);
    REQUIRE(got.size() == expected.size());
    // Only the generator differs: spirv-as writes its own, we write 0 (no "; Generator:" comment).
    CHECK(expected[2] == kSpirvAsGenerator);
    CHECK(got[2] == 0);
    got[2] = expected[2];
    CHECK_MESSAGE(got == expected, firstWordDifference(got, expected)); // bound (max id + 1) included
  }
}
