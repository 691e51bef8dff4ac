// Run spec parsing: every init kind, scalar forms, the documented random mapping, comparison/printing,
// and each user error (with its JSON path).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "frontend/diagnostics.h"
#include "sim/runspec.h"

using namespace spvhls;
using namespace spvhls::sim;

namespace {

template <typename T>
T elemAt(const std::vector<uint8_t>& bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

RunSpec parse(const std::string& text) { return parseRunSpec(text, "/tmp/spec.json"); }

// One buffer argument with the given element type, length and init (JSON text).
RunSpec parseBuffer(const std::string& type, uint64_t length, const std::string& init) {
  return parse(R"({"kernel": "k", "args": [{"name": "a", "buffer": {"type": ")" + type + R"(", "length": )" +
               std::to_string(length) + R"(, "init": )" + init + "}}]}");
}

// The single diagnostic of a failing parse: construct (JSON path) and message.
std::pair<std::string, std::string> errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const DiagnosticError& e) {
    REQUIRE(e.diagnostics().size() == 1);
    const auto& d = e.diagnostics()[0];
    CHECK(d.loc.file == "/tmp/spec.json");
    return {d.construct, d.message};
  }
  FAIL("expected a DiagnosticError for: " << text);
  return {};
}

void checkError(const std::string& text, const std::string& path, const std::string& messagePart) {
  auto [where, message] = errorOf(text);
  CHECK_MESSAGE(where == path, message);
  CHECK_MESSAGE(message.find(messagePart) != std::string::npos, "message: " << message);
}

} // namespace

TEST_CASE("runspec: kernel, scalars and buffer basics") {
  RunSpec s = parse(R"({"kernel": "vadd", "args": [
      {"name": "a", "buffer": {"type": "i32", "length": 4}},
      {"name": "n", "value": 64},
      {"value": -1},
      {"name": "big", "value": 18446744073709551615},
      {"name": "x", "type": "f32", "value": 1.5},
      {"name": "h", "type": "i16", "value": -2}]})");
  CHECK(s.kernel == "vadd");
  CHECK(s.path == "/tmp/spec.json");
  REQUIRE(s.args.size() == 6);
  CHECK(s.args[0].isBuffer);
  CHECK(s.args[0].elem.name == "i32");
  CHECK(s.args[0].elem.bytes == 4);
  CHECK(s.args[0].length == 4);
  CHECK(s.args[0].init == std::vector<uint8_t>(16, 0)); // default init is zeros
  CHECK_FALSE(s.args[1].isBuffer);
  CHECK(s.args[1].scalar == 64);
  CHECK(s.args[2].name == "arg2"); // unnamed arguments get a positional name
  CHECK(s.args[2].scalar == ~uint64_t(0));
  CHECK(s.args[3].scalar == ~uint64_t(0));
  float f = 1.5f;
  uint32_t fbits;
  std::memcpy(&fbits, &f, 4);
  CHECK(s.args[4].scalar == fbits);
  CHECK(s.args[5].scalar == 0xfffe); // typed scalars keep only the type's bits

  BufferSet b = initialBuffers(s);
  REQUIRE(b.size() == 6);
  CHECK(b[0].size() == 16);
  CHECK(b[1].empty());
}

TEST_CASE("runspec: element types") {
  struct Case { const char* name; uint32_t bytes; bool isFloat, isSigned; };
  for (Case c : {Case{"i8", 1, false, true}, Case{"i16", 2, false, true}, Case{"i32", 4, false, true},
                 Case{"i64", 8, false, true}, Case{"u8", 1, false, false}, Case{"u16", 2, false, false},
                 Case{"u32", 4, false, false}, Case{"u64", 8, false, false}, Case{"f16", 2, true, true},
                 Case{"f32", 4, true, true}, Case{"f64", 8, true, true}}) {
    RunSpec s = parseBuffer(c.name, 3, "\"zeros\"");
    CHECK(s.args[0].elem.bytes == c.bytes);
    CHECK(s.args[0].elem.isFloat == c.isFloat);
    CHECK(s.args[0].elem.isSigned == c.isSigned);
    CHECK(s.args[0].init.size() == 3 * c.bytes);
  }
}

TEST_CASE("runspec: list init fills from index 0, the rest zero") {
  RunSpec s = parseBuffer("i16", 5, "[1, -2, 32767]");
  const auto& b = s.args[0].init;
  CHECK(elemAt<int16_t>(b, 0) == 1);
  CHECK(elemAt<int16_t>(b, 1) == -2);
  CHECK(elemAt<int16_t>(b, 2) == 32767);
  CHECK(elemAt<int16_t>(b, 3) == 0);
  CHECK(elemAt<int16_t>(b, 4) == 0);

  RunSpec u = parseBuffer("u64", 2, "[18446744073709551615, 7]");
  CHECK(elemAt<uint64_t>(u.args[0].init, 0) == ~uint64_t(0));
  CHECK(elemAt<uint64_t>(u.args[0].init, 1) == 7);

  RunSpec f = parseBuffer("f32", 5, R"([0.1, -2, "inf", "-inf", "nan"])");
  CHECK(elemAt<float>(f.args[0].init, 0) == 0.1f);
  CHECK(elemAt<float>(f.args[0].init, 1) == -2.0f);
  CHECK(std::isinf(elemAt<float>(f.args[0].init, 2)));
  CHECK(elemAt<float>(f.args[0].init, 3) < 0);
  CHECK(std::isnan(elemAt<float>(f.args[0].init, 4)));

  RunSpec d = parseBuffer("f64", 1, "[0.1]");
  CHECK(elemAt<double>(d.args[0].init, 0) == 0.1);
}

TEST_CASE("runspec: f16 rounding") {
  // 1, -2, max finite 65504, 65520 rounds to infinity, smallest subnormal 2^-24, 1 + 2^-11 is a tie
  // that rounds to even (1.0), 1 + 3*2^-11 rounds up to 1 + 2^-9.
  RunSpec s = parseBuffer("f16", 8, "[1, -2, 65504, 65520, 5.960464477539063e-08, 1.00048828125, 1.00146484375, 0.333333333]");
  const auto& b = s.args[0].init;
  CHECK(elemAt<uint16_t>(b, 0) == 0x3c00);
  CHECK(elemAt<uint16_t>(b, 1) == 0xc000);
  CHECK(elemAt<uint16_t>(b, 2) == 0x7bff);
  CHECK(elemAt<uint16_t>(b, 3) == 0x7c00);
  CHECK(elemAt<uint16_t>(b, 4) == 0x0001);
  CHECK(elemAt<uint16_t>(b, 5) == 0x3c00);
  CHECK(elemAt<uint16_t>(b, 6) == 0x3c02);
  CHECK(elemAt<uint16_t>(b, 7) == 0x3555);
}

TEST_CASE("runspec: random init is deterministic and follows the documented mapping") {
  RunSpec a = parseBuffer("u32", 100, R"({"random": {"seed": 42}})");
  RunSpec b = parseBuffer("u32", 100, R"({"random": {"seed": 42}})");
  RunSpec c = parseBuffer("u32", 100, R"({"random": {"seed": 43}})");
  CHECK(a.args[0].init == b.args[0].init);
  CHECK(a.args[0].init != c.args[0].init);
  // Full range of a 32-bit type: span 2^32 divides 2^64, so every draw is accepted: value = low bits.
  std::mt19937_64 rng(42);
  for (size_t i = 0; i < 100; ++i) CHECK(elemAt<uint32_t>(a.args[0].init, i) == static_cast<uint32_t>(rng()));

  // Floats: min + u * (max - min), u = (r >> 11) * 2^-53.
  RunSpec f = parseBuffer("f64", 50, R"({"random": {"seed": 7, "min": 2, "max": 10}})");
  std::mt19937_64 frng(7);
  for (size_t i = 0; i < 50; ++i) {
    double u = static_cast<double>(frng() >> 11) * std::ldexp(1.0, -53);
    CHECK(elemAt<double>(f.args[0].init, i) == 2.0 + u * 8.0);
  }
}

TEST_CASE("runspec: random init ranges") {
  RunSpec s = parseBuffer("i32", 2000, R"({"random": {"seed": 1, "min": -100, "max": 100}})");
  int lo = 1000, hi = -1000;
  for (size_t i = 0; i < 2000; ++i) {
    int v = elemAt<int32_t>(s.args[0].init, i);
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  CHECK(lo == -100); // 2000 draws over 201 values reach both ends
  CHECK(hi == 100);

  RunSpec d = parseBuffer("i8", 4000, R"({"random": {"seed": 3}})"); // default: full range
  int dlo = 1000, dhi = -1000;
  for (size_t i = 0; i < 4000; ++i) {
    int v = elemAt<int8_t>(d.args[0].init, i);
    dlo = std::min(dlo, v), dhi = std::max(dhi, v);
  }
  CHECK(dlo == -128);
  CHECK(dhi == 127);

  RunSpec one = parseBuffer("u16", 10, R"({"random": {"seed": 3, "min": 9, "max": 9}})");
  for (size_t i = 0; i < 10; ++i) CHECK(elemAt<uint16_t>(one.args[0].init, i) == 9);

  RunSpec f = parseBuffer("f32", 1000, R"({"random": {"seed": 5}})"); // default [-1, 1]
  bool neg = false, pos = false;
  for (size_t i = 0; i < 1000; ++i) {
    float v = elemAt<float>(f.args[0].init, i);
    CHECK(v >= -1.0f);
    CHECK(v <= 1.0f);
    neg = neg || v < 0, pos = pos || v > 0;
  }
  CHECK((neg && pos));

  RunSpec h = parseBuffer("f16", 100, R"({"random": {"seed": 5, "min": 0, "max": 4}})");
  for (size_t i = 0; i < 100; ++i) {
    uint16_t bits = elemAt<uint16_t>(h.args[0].init, i);
    CHECK(bits <= 0x4400); // non-negative halves order like integers; 4.0 = 0x4400
  }
}

TEST_CASE("runspec: file init is relative to the spec's directory") {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(SPVHLS_BINARY_DIR) / "test_runspec_tmp";
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "d.bin", std::ios::binary);
    const char bytes[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    out.write(bytes, 8);
  }
  std::string text = R"({"kernel": "k", "args": [{"name": "d", "buffer": {"type": "u32", "length": 2, "init": {"file": "d.bin"}}}]})";
  RunSpec s = parseRunSpec(text, (dir / "spec.json").string());
  CHECK(elemAt<uint32_t>(s.args[0].init, 0) == 1);
  CHECK(elemAt<uint32_t>(s.args[0].init, 1) == 2);

  {
    std::ofstream out(dir / "spec.json");
    out << text;
  }
  RunSpec loaded = loadRunSpec((dir / "spec.json").string());
  CHECK(loaded.args[0].init == s.args[0].init);

  // Wrong size: the file must hold exactly length * element size bytes.
  std::string wrong = R"({"kernel": "k", "args": [{"name": "d", "buffer": {"type": "u32", "length": 3, "init": {"file": "d.bin"}}}]})";
  try {
    parseRunSpec(wrong, (dir / "spec.json").string());
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    CHECK(e.diagnostics()[0].construct == "args[0].buffer.init.file");
    CHECK(std::string(e.what()).find("has 8 bytes; expected 12") != std::string::npos);
  }
  CHECK_THROWS_AS(loadRunSpec((dir / "missing.json").string()), DiagnosticError);
}

TEST_CASE("runspec: errors name the JSON path and what was expected") {
  const std::string k = R"({"kernel": "k", "args": [)";
  checkError(R"([1, 2])", "(top level)", "expected an object");
  checkError(R"({"args": []})", "kernel", "kernel (entry point) name");
  checkError(R"({"kernel": 3, "args": []})", "kernel", "non-empty string");
  checkError(R"({"kernel": "k"})", "args", "missing");
  checkError(R"({"kernel": "k", "args": {}})", "args", "expected a list");
  checkError(R"({"kernel": "k", "args": [], "extra": 1})", "(top level)", "unknown key \"extra\"");
  checkError(k + R"(7]})", "args[0]", "expected an object");
  checkError(k + R"({"name": 5, "value": 1}]})", "args[0].name", "expected a string");
  checkError(k + R"({"name": "a"}]})", "args[0]", "exactly one of");
  checkError(k + R"({"name": "a", "value": 1, "buffer": {}}]})", "args[0]", "exactly one of");
  checkError(k + R"({"name": "a", "valeu": 1}]})", "args[0]", "unknown key \"valeu\"");
  checkError(k + R"({"value": 1.5}]})", "args[0].value", "\"type\": \"f32\"");
  checkError(k + R"({"value": "12"}]})", "args[0].value", "expected an integer");
  checkError(k + R"({"type": "u8", "value": 256}]})", "args[0].value", "does not fit u8");
  checkError(k + R"({"type": "i8", "value": -129}]})", "args[0].value", "[-128, 127]");
  checkError(k + R"({"type": "x32", "value": 1}]})", "args[0].type", "expected an element type");
  checkError(k + R"({"buffer": 3}]})", "args[0].buffer", "expected an object");
  checkError(k + R"({"buffer": {"length": 4}}]})", "args[0].buffer", "missing \"type\"");
  checkError(k + R"({"buffer": {"type": "i32"}}]})", "args[0].buffer", "missing \"length\"");
  checkError(k + R"({"buffer": {"type": "i33", "length": 4}}]})", "args[0].buffer.type", "expected an element type");
  checkError(k + R"({"buffer": {"type": "i32", "length": 0}}]})", "args[0].buffer.length", "positive integer");
  checkError(k + R"({"buffer": {"type": "i32", "length": -4}}]})", "args[0].buffer.length", "positive integer");
  checkError(k + R"({"buffer": {"type": "i64", "length": 1000000000000}}]})", "args[0].buffer.length", "size limit");
  checkError(k + R"({"buffer": {"type": "i32", "length": 4, "lenght": 4}}]})", "args[0].buffer", "unknown key \"lenght\"");
  checkError(k + R"({"buffer": {"type": "i32", "length": 4}, "type": "i32"}]})", "args[0].type", "inside \"buffer\"");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": "ones"}}]})", "args[0].buffer.init", "expected \"zeros\"");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": [1, 2, 3]}}]})", "args[0].buffer.init", "at most 2");
  checkError(k + R"({"buffer": {"type": "u8", "length": 2, "init": [1, 300]}}]})", "args[0].buffer.init[1]", "does not fit u8");
  checkError(k + R"({"buffer": {"type": "u8", "length": 2, "init": [-1]}}]})", "args[0].buffer.init[0]", "[0, 255]");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": [1.5]}}]})", "args[0].buffer.init[0]", "expected an integer");
  checkError(k + R"({"buffer": {"type": "f32", "length": 2, "init": ["x"]}}]})", "args[0].buffer.init[0]", "expected a number");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"random": 1}}}]})", "args[0].buffer.init.random", "expected an object");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"random": {"sede": 1}}}}]})", "args[0].buffer.init.random",
             "unknown key \"sede\"");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"random": {"seed": -1}}}}]})",
             "args[0].buffer.init.random.seed", "non-negative integer");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"random": {"min": 5, "max": 4}}}}]})",
             "args[0].buffer.init.random", "min <= max");
  checkError(k + R"({"buffer": {"type": "u8", "length": 2, "init": {"random": {"max": 256}}}}]})",
             "args[0].buffer.init.random.max", "does not fit u8");
  checkError(k + R"({"buffer": {"type": "f32", "length": 2, "init": {"random": {"min": 1, "max": "inf"}}}}]})",
             "args[0].buffer.init.random", "finite");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"file": 3}}}]})", "args[0].buffer.init.file", "file name");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"file": "no-such.bin"}}}]})", "args[0].buffer.init.file",
             "cannot open");
  checkError(k + R"({"buffer": {"type": "i32", "length": 2, "init": {"file": "a", "random": {}}}}]})", "args[0].buffer.init",
             "expected \"zeros\"");
}

TEST_CASE("runspec: JSON syntax errors carry line and column") {
  try {
    parse("{\n  \"kernel\": \"k\",\n  \"args\": [,]\n}");
    FAIL("expected an error");
  } catch (const DiagnosticError& e) {
    const auto& d = e.diagnostics()[0];
    CHECK(d.loc.line == 3);
    CHECK(d.loc.column == 12);
    CHECK(d.message.find("syntax error") != std::string::npos);
  }
}

TEST_CASE("runspec: compareBuffers and formatBuffers") {
  RunSpec s = parse(R"({"kernel": "k", "args": [
      {"name": "a", "buffer": {"type": "i32", "length": 4, "init": [1, 2, 3, 4]}},
      {"name": "n", "value": 4},
      {"name": "f", "buffer": {"type": "f32", "length": 2, "init": [0.5, 1]}}]})");
  BufferSet e = initialBuffers(s);
  CHECK(compareBuffers(s, e, e) == "");

  BufferSet g = e;
  int32_t minus7 = -7;
  std::memcpy(g[0].data() + 8, &minus7, 4);
  std::string r = compareBuffers(s, e, g);
  CHECK(r.find("a (i32[4]): element 2: expected 3 (0x00000003), got -7 (0xfffffff9)") != std::string::npos);

  // A NaN with a different payload differs bit-for-bit.
  BufferSet h = e;
  uint32_t nan1 = 0x7fc00001;
  std::memcpy(h[2].data() + 4, &nan1, 4);
  CHECK(compareBuffers(s, e, h).find("f (f32[2]): element 1: expected 1 (0x3f800000), got nan (0x7fc00001)") != std::string::npos);

  // Reports at most maxReported mismatches and the total.
  BufferSet all = e;
  for (auto& byte : all[0]) byte ^= 0xff;
  std::string limited = compareBuffers(s, e, all, 2);
  CHECK(limited.find("element 1") != std::string::npos);
  CHECK(limited.find("element 2") == std::string::npos);
  CHECK(limited.find("4 mismatching elements in total") != std::string::npos);

  BufferSet shorter = e;
  shorter[0].resize(8);
  CHECK(compareBuffers(s, e, shorter).find("expected 16 bytes, got 8") != std::string::npos);
  CHECK(compareBuffers(s, e, BufferSet{}) != "");

  std::string text = formatBuffers(s, e);
  CHECK(text == "a (i32[4]): 1 2 3 4\nf (f32[2]): 0.5 1\n");
  CHECK(formatBuffers(s, e, 2) == "a (i32[4]): 1 2 ... (2 more)\nf (f32[2]): 0.5 1\n");
}
