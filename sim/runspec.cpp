// Run spec parsing, buffer initialisation, comparison and printing.
//
// Initialisers of a buffer ("init"):
//   "zeros" (also the default)            every byte 0
//   [v0, v1, ...]                         element i = vi from index 0, the rest 0; floats also accept
//                                         "nan", "inf", "-inf"
//   {"random": {"seed": S, "min": a, "max": b}}
//                                         deterministic pseudo-random values, see randomFill()
//   {"file": "name.bin"}                  raw little-endian bytes, exactly length * element size;
//                                         relative names are relative to the spec file's directory
// A scalar argument is {"name": n, "value": v} with an integer v (kept as two's complement bits), or
// {"name": n, "type": "f32", "value": 1.5} for a typed (e.g. floating-point) scalar.
#include "sim/runspec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/diagnostics.h"

namespace spvhls::sim {

namespace {

using nlohmann::json;

constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 30; // keeps a typo in "length" from eating memory

// ---- IEEE half precision (f16) conversions; round to nearest even --------------------------------

uint16_t doubleToHalf(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  if (std::isnan(d)) return sign | 0x7e00;
  if (a >= 65520.0) return sign | 0x7c00; // 65520 is the midpoint between 65504 and 2^16: rounds up
  if (a < std::ldexp(1.0, -14)) {        // subnormal: units of 2^-24; 1024 units = smallest normal
    return sign | static_cast<uint16_t>(std::nearbyint(a * std::ldexp(1.0, 24)));
  }
  int exp = 0;
  double frac = std::frexp(a, &exp); // a = frac * 2^exp, frac in [0.5, 1)
  int e = exp - 1;
  auto m = static_cast<uint32_t>(std::nearbyint((frac * 2.0 - 1.0) * 1024.0));
  if (m == 1024) { m = 0; ++e; }
  return sign | static_cast<uint16_t>(((e + 15) << 10) | m);
}

double halfToDouble(uint16_t h) {
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  int e = (h >> 10) & 0x1f;
  int m = h & 0x3ff;
  if (e == 0) return sign * std::ldexp(m, -24);
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  return sign * std::ldexp(1024 + m, e - 25);
}

// ---- element types --------------------------------------------------------------------------------

bool elemTypeFromName(const std::string& name, ElemType& out) {
  static const ElemType table[] = {
      {"i8", 1, false, true},   {"i16", 2, false, true},  {"i32", 4, false, true},
      {"i64", 8, false, true},  {"u8", 1, false, false},  {"u16", 2, false, false},
      {"u32", 4, false, false}, {"u64", 8, false, false}, {"f16", 2, true, true},
      {"f32", 4, true, true},   {"f64", 8, true, true},
  };
  for (const auto& t : table) {
    if (t.name == name) {
      out = t;
      return true;
    }
  }
  return false;
}

uint64_t widthMask(uint32_t bytes) { return bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1; }

void putLE(std::vector<uint8_t>& out, uint64_t byteOffset, uint64_t bits, uint32_t bytes) {
  for (uint32_t i = 0; i < bytes; ++i) out[byteOffset + i] = static_cast<uint8_t>(bits >> (8 * i));
}

uint64_t getLE(const std::vector<uint8_t>& in, uint64_t byteOffset, uint32_t bytes) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < bytes; ++i) v |= uint64_t(in[byteOffset + i]) << (8 * i);
  return v;
}

// The bits of a double rounded to the float type `t`.
uint64_t floatBits(const ElemType& t, double d) {
  if (t.bytes == 2) return doubleToHalf(d);
  if (t.bytes == 4) {
    float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

double floatValue(const ElemType& t, uint64_t bits) {
  if (t.bytes == 2) return halfToDouble(static_cast<uint16_t>(bits));
  if (t.bytes == 4) {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// One element formatted by its type; `hex` adds the raw bits (for bit-exact comparisons).
std::string formatElem(const ElemType& t, uint64_t bits, bool hex) {
  std::string s;
  if (t.isFloat) {
    double d = floatValue(t, bits);
    s = t.bytes == 4 ? fmt::format("{}", static_cast<float>(d)) : fmt::format("{}", d);
  } else if (t.isSigned) {
    uint32_t shift = 64 - 8 * t.bytes;
    s = fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
  } else {
    s = fmt::format("{}", bits);
  }
  if (hex) s += fmt::format(" (0x{:0{}x})", bits, 2 * t.bytes);
  return s;
}

// ---- parsing --------------------------------------------------------------------------------------

class SpecParser {
public:
  explicit SpecParser(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& message) const {
    SourceLoc loc;
    loc.file = path_;
    throw DiagnosticError(loc, where, message);
  }

  static std::string kindOf(const json& j) {
    if (j.is_number_integer()) return "an integer";
    if (j.is_number()) return "a number";
    return fmt::format("{} {}", j.is_array() || j.is_object() ? "an" : "a", j.type_name());
  }

  // Rejects keys that are not in `allowed` (catches typos such as "lenght").
  void checkKeys(const json& obj, const std::string& where, std::initializer_list<const char*> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || it.key() == a;
      if (!ok) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
        fail(where, fmt::format("unknown key \"{}\"; expected one of {}", it.key(), list));
      }
    }
  }

  // An integer JSON value as 64-bit two's complement bits, range-checked against `t` when given.
  uint64_t integerBits(const json& j, const std::string& where, const ElemType* t) const {
    if (!j.is_number_integer()) fail(where, fmt::format("expected an integer, found {}", kindOf(j)));
    bool negative = j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() < 0;
    uint64_t bits = negative ? static_cast<uint64_t>(j.get<int64_t>()) : j.get<uint64_t>();
    if (!t) return bits;
    uint32_t w = 8 * t->bytes;
    if (t->isSigned) {
      int64_t lo = w == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (w - 1));
      int64_t hi = w == 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (w - 1)) - 1;
      bool inRange = negative ? static_cast<int64_t>(bits) >= lo : bits <= static_cast<uint64_t>(hi);
      if (!inRange) fail(where, fmt::format("{} does not fit {}: expected a value in [{}, {}]", j.dump(), t->name, lo, hi));
    } else if (negative || bits > widthMask(t->bytes)) {
      fail(where, fmt::format("{} does not fit {}: expected a value in [0, {}]", j.dump(), t->name, widthMask(t->bytes)));
    }
    return bits & widthMask(t->bytes);
  }

  double floatNumber(const json& j, const std::string& where) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      auto s = j.get<std::string>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return HUGE_VAL;
      if (s == "-inf") return -HUGE_VAL;
    }
    fail(where, fmt::format("expected a number (or \"nan\", \"inf\", \"-inf\"), found {}", j.dump()));
  }

  // The bits of one element of type `t` from a JSON value.
  uint64_t elemBits(const json& j, const std::string& where, const ElemType& t) const {
    return t.isFloat ? floatBits(t, floatNumber(j, where)) : integerBits(j, where, &t);
  }

  ElemType elemType(const json& j, const std::string& where) const {
    ElemType t;
    if (!j.is_string() || !elemTypeFromName(j.get<std::string>(), t))
      fail(where, fmt::format("expected an element type (i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64), found {}", j.dump()));
    return t;
  }

  // Integers: uniform in [min, max] (default: the type's full range). A raw 64-bit draw r is mapped by
  // rejection sampling to r % span with r below the largest multiple of span, so the result does not
  // depend on the standard library's distribution algorithms.
  // Floats: uniform in [min, max] (default [-1, 1]) as min + u * (max - min) with u = (r >> 11) * 2^-53,
  // rounded to the element type. Each buffer restarts std::mt19937_64 from its own seed.
  void randomFill(const json& r, const std::string& where, ArgSpec& arg) const {
    if (!r.is_object()) fail(where, fmt::format("expected an object {{\"seed\", \"min\", \"max\"}}, found {}", kindOf(r)));
    checkKeys(r, where, {"seed", "min", "max"});
    uint64_t seed = 0;
    if (r.contains("seed")) {
      const json& s = r["seed"];
      if (!s.is_number_unsigned()) fail(where + ".seed", fmt::format("expected a non-negative integer, found {}", s.dump()));
      seed = s.get<uint64_t>();
    }
    std::mt19937_64 rng(seed);
    const ElemType& t = arg.elem;
    if (t.isFloat) {
      double lo = r.contains("min") ? floatNumber(r["min"], where + ".min") : -1.0;
      double hi = r.contains("max") ? floatNumber(r["max"], where + ".max") : 1.0;
      if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi)
        fail(where, fmt::format("expected finite min <= max, found min {} and max {}", lo, hi));
      for (uint64_t i = 0; i < arg.length; ++i) {
        double u = static_cast<double>(rng() >> 11) * std::ldexp(1.0, -53);
        putLE(arg.init, i * t.bytes, floatBits(t, lo + u * (hi - lo)), t.bytes);
      }
      return;
    }
    uint32_t w = 8 * t.bytes;
    uint32_t shift = 64 - w;
    // Work in "biased" space for signed types so that [lo, hi] is an unsigned interval.
    uint64_t typeLo = t.isSigned ? uint64_t(1) << (w - 1) : 0; // bits of the most negative value
    auto toSext = [&](uint64_t bits) { return static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift); };
    uint64_t lo = r.contains("min") ? integerBits(r["min"], where + ".min", &t) : typeLo;
    uint64_t hi = r.contains("max") ? integerBits(r["max"], where + ".max", &t) : (typeLo - 1) & widthMask(t.bytes);
    uint64_t loKey = t.isSigned ? toSext(lo) ^ (uint64_t(1) << 63) : lo;
    uint64_t hiKey = t.isSigned ? toSext(hi) ^ (uint64_t(1) << 63) : hi;
    if (loKey > hiKey) fail(where, fmt::format("expected min <= max, found min {} and max {}", formatElem(t, lo, false), formatElem(t, hi, false)));
    uint64_t span = hiKey - loKey + 1; // 0 means all 2^64 values
    uint64_t limit = span == 0 ? 0 : ~uint64_t(0) - (~uint64_t(0) % span + 1) % span; // last accepted draw
    for (uint64_t i = 0; i < arg.length; ++i) {
      uint64_t v = rng();
      if (span != 0) {
        while (v > limit) v = rng();
        v %= span;
      }
      putLE(arg.init, i * t.bytes, (lo + v) & widthMask(t.bytes), t.bytes);
    }
  }

  void fileFill(const json& f, const std::string& where, ArgSpec& arg) const {
    if (!f.is_string()) fail(where, fmt::format("expected a file name, found {}", kindOf(f)));
    std::filesystem::path p(f.get<std::string>());
    if (p.is_relative()) p = std::filesystem::path(path_).parent_path() / p;
    std::ifstream in(p, std::ios::binary);
    if (!in) fail(where, fmt::format("cannot open \"{}\"", p.string()));
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() != arg.init.size())
      fail(where, fmt::format("\"{}\" has {} bytes; expected {} ({} x {})", p.string(), bytes.size(), arg.init.size(),
                              arg.length, arg.elem.name));
    arg.init = std::move(bytes);
  }

  void bufferInit(const json& init, const std::string& where, ArgSpec& arg) const {
    const ElemType& t = arg.elem;
    if (init.is_string() && init.get<std::string>() == "zeros") return;
    if (init.is_array()) {
      if (init.size() > arg.length)
        fail(where, fmt::format("{} values for a buffer of length {}; expected at most {}", init.size(), arg.length, arg.length));
      for (size_t i = 0; i < init.size(); ++i)
        putLE(arg.init, i * t.bytes, elemBits(init[i], fmt::format("{}[{}]", where, i), t), t.bytes);
      return;
    }
    if (init.is_object() && init.size() == 1 && init.contains("random")) return randomFill(init["random"], where + ".random", arg);
    if (init.is_object() && init.size() == 1 && init.contains("file")) return fileFill(init["file"], where + ".file", arg);
    fail(where, fmt::format("expected \"zeros\", a list of values, {{\"random\": {{...}}}} or {{\"file\": \"...\"}}, found {}",
                            init.dump()));
  }

  ArgSpec arg(const json& a, size_t index, const char* list = "args") const {
    std::string where = fmt::format("{}[{}]", list, index);
    if (!a.is_object()) fail(where, fmt::format("expected an object with \"buffer\" or \"value\", found {}", kindOf(a)));
    checkKeys(a, where, {"name", "buffer", "value", "type"});
    ArgSpec out;
    if (a.contains("name")) {
      if (!a["name"].is_string()) fail(where + ".name", fmt::format("expected a string, found {}", kindOf(a["name"])));
      out.name = a["name"].get<std::string>();
    }
    if (out.name.empty()) out.name = fmt::format("arg{}", index);
    if (a.contains("buffer") == a.contains("value"))
      fail(where, "expected exactly one of \"buffer\" (a pointer argument) or \"value\" (a scalar argument)");

    if (a.contains("value")) {
      if (a.contains("type")) {
        out.elem = elemType(a["type"], where + ".type");
        out.scalar = elemBits(a["value"], where + ".value", out.elem);
      } else {
        if (a["value"].is_number() && !a["value"].is_number_integer())
          fail(where + ".value", fmt::format("expected an integer, found {}; for a floating-point scalar add \"type\": \"f32\" or \"f64\"",
                                             a["value"].dump()));
        out.scalar = integerBits(a["value"], where + ".value", nullptr);
      }
      return out;
    }
    if (a.contains("type")) fail(where + ".type", "\"type\" belongs inside \"buffer\" for a buffer argument");

    const json& b = a["buffer"];
    std::string bw = where + ".buffer";
    if (!b.is_object()) fail(bw, fmt::format("expected an object {{\"type\", \"length\", \"init\"}}, found {}", kindOf(b)));
    checkKeys(b, bw, {"type", "length", "init"});
    out.isBuffer = true;
    if (!b.contains("type")) fail(bw, "missing \"type\" (the element type, e.g. \"i32\")");
    out.elem = elemType(b["type"], bw + ".type");
    if (!b.contains("length")) fail(bw, "missing \"length\" (the number of elements)");
    const json& len = b["length"];
    if (!len.is_number_unsigned() || len.get<uint64_t>() == 0)
      fail(bw + ".length", fmt::format("expected a positive integer, found {}", len.dump()));
    out.length = len.get<uint64_t>();
    if (out.length > kMaxBufferBytes / out.elem.bytes)
      fail(bw + ".length", fmt::format("{} elements of {} exceed the buffer size limit of {} bytes", out.length, out.elem.name,
                                       kMaxBufferBytes));
    out.init.assign(out.length * out.elem.bytes, 0);
    if (b.contains("init")) bufferInit(b["init"], bw + ".init", out);
    return out;
  }

  RunSpec parse(const std::string& text) const {
    json root;
    try {
      root = json::parse(text);
    } catch (const json::parse_error& e) {
      // Report the line and column of the syntax error.
      SourceLoc loc;
      loc.file = path_;
      loc.line = 1;
      loc.column = 1;
      for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
        if (text[i] == '\n') { ++loc.line; loc.column = 1; } else { ++loc.column; }
      }
      std::string msg = e.what();
      if (auto pos = msg.find("syntax error"); pos != std::string::npos) msg = msg.substr(pos);
      throw DiagnosticError(loc, "JSON", msg);
    }
    if (!root.is_object()) fail("(top level)", fmt::format("expected an object {{\"kernel\", \"args\"}}, found {}", kindOf(root)));
    checkKeys(root, "(top level)",
              {"kernel", "args", "globals", "global_size", "local_size", "subgroup_size"});
    RunSpec spec;
    spec.path = path_;
    if (!root.contains("kernel") || !root["kernel"].is_string() || root["kernel"].get<std::string>().empty())
      fail("kernel", "expected the kernel (entry point) name as a non-empty string");
    spec.kernel = root["kernel"].get<std::string>();
    if (!root.contains("args")) fail("args", "missing: expected a list of arguments in kernel parameter order");
    const json& args = root["args"];
    if (!args.is_array()) fail("args", fmt::format("expected a list of arguments, found {}", kindOf(args)));
    for (size_t i = 0; i < args.size(); ++i) spec.args.push_back(arg(args[i], i));
    if (root.contains("globals")) {
      const json& globals = root["globals"];
      if (!globals.is_array())
        fail("globals", fmt::format("expected a list of program-scope variables, found {}", kindOf(globals)));
      for (size_t i = 0; i < globals.size(); ++i) {
        const std::string where = fmt::format("globals[{}]", i);
        if (!globals[i].is_object() || !globals[i].contains("name") || !globals[i].contains("buffer"))
          fail(where, "expected {\"name\": <variable>, \"buffer\": {\"type\", \"length\", \"init\"}}");
        spec.globals.push_back(arg(globals[i], i, "globals"));
        for (size_t j = 0; j + 1 < spec.globals.size(); ++j)
          if (spec.globals[j].name == spec.globals.back().name)
            fail(where + ".name", fmt::format("variable '{}' is given twice", spec.globals.back().name));
      }
    }
    ndRange(root, spec);
    return spec;
  }

private:
  std::string path_;

  // A positive integer no larger than `max`.
  uint64_t positive(const json& j, const std::string& where, uint64_t max) const {
    if (!j.is_number_integer() || j.get<int64_t>() < 1 || static_cast<uint64_t>(j.get<int64_t>()) > max)
      fail(where, fmt::format("expected an integer from 1 to {}, found {}", max, j.dump()));
    return static_cast<uint64_t>(j.get<int64_t>());
  }

  void ndRange(const json& root, RunSpec& spec) const {
    constexpr uint64_t kMaxItems = uint64_t(1) << 32; // total work-items the interpreter accepts
    auto sizes = [&](const char* key, std::array<uint64_t, 3>& out) -> uint32_t {
      if (!root.contains(key)) return 0;
      const json& j = root[key];
      if (!j.is_array() || j.empty() || j.size() > 3)
        fail(key, fmt::format("expected a list of 1 to 3 sizes [x, y, z], found {}", j.dump()));
      for (size_t d = 0; d < j.size(); ++d) out[d] = positive(j[d], fmt::format("{}[{}]", key, d), kMaxItems);
      return static_cast<uint32_t>(j.size());
    };
    uint32_t gd = sizes("global_size", spec.globalSize);
    uint32_t ld = sizes("local_size", spec.localSize);
    spec.workDim = gd ? gd : 1;
    if (ld && ld != spec.workDim)
      fail("local_size", fmt::format("has {} entries but global_size has {} (one per dimension)", ld, spec.workDim));
    uint64_t total = 1;
    for (int d = 0; d < 3; ++d) {
      if (spec.globalSize[d] % spec.localSize[d] != 0)
        fail(ld ? fmt::format("local_size[{}]", d) : "local_size",
             fmt::format("{} does not divide global_size[{}] = {} (non-uniform work-groups are not supported)",
                         spec.localSize[d], d, spec.globalSize[d]));
      total *= spec.globalSize[d];
      if (total > kMaxItems) fail("global_size", fmt::format("more than {} work-items in total", kMaxItems));
    }
    if (root.contains("subgroup_size")) spec.subgroupSize = static_cast<uint32_t>(positive(root["subgroup_size"], "subgroup_size", 1024));
  }
};

std::string describeArg(const ArgSpec& a) {
  return fmt::format("{} ({}[{}])", a.name, a.elem.name, a.length);
}

} // namespace

RunSpec parseRunSpec(const std::string& jsonText, const std::string& path) { return SpecParser(path).parse(jsonText); }

RunSpec loadRunSpec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    SourceLoc loc;
    loc.file = path;
    throw DiagnosticError(loc, "run spec", "cannot open the file");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parseRunSpec(ss.str(), path);
}

BufferSet initialBuffers(const RunSpec& spec) {
  BufferSet out;
  for (const auto& a : spec.args) out.push_back(a.isBuffer ? a.init : std::vector<uint8_t>{});
  return out;
}

std::string compareBuffers(const RunSpec& spec, const BufferSet& expected, const BufferSet& actual, size_t maxReported,
                           const std::vector<std::vector<uint32_t>>* lastWrite) {
  if (expected.size() != spec.args.size() || actual.size() != spec.args.size())
    return fmt::format("buffer sets differ in size: spec has {} arguments, expected set {}, actual set {}", spec.args.size(),
                       expected.size(), actual.size());
  std::string report;
  size_t mismatches = 0, reported = 0;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    const auto &e = expected[i], &g = actual[i];
    if (e.size() != g.size()) {
      report += fmt::format("argument {}: expected {} bytes, got {}\n", describeArg(a), e.size(), g.size());
      ++mismatches, ++reported;
      continue;
    }
    if (!a.isBuffer || e == g) continue;
    uint32_t eb = a.elem.bytes;
    for (uint64_t k = 0; k + eb <= e.size(); k += eb) {
      uint64_t ev = getLE(e, k, eb), gv = getLE(g, k, eb);
      if (ev == gv) continue;
      if (++mismatches > maxReported) continue;
      ++reported;
      std::string when;
      if (lastWrite && i < lastWrite->size() && (*lastWrite)[i].size() == g.size()) {
        uint32_t last = 0;
        for (uint64_t b = k; b < k + eb; ++b) last = std::max(last, (*lastWrite)[i][b]);
        when = last ? fmt::format(" (last written at cycle {})", last - 1) : " (never written by the kernel)";
      }
      report += fmt::format("argument {}: element {}: expected {}, got {}{}\n", describeArg(a), k / eb,
                            formatElem(a.elem, ev, true), formatElem(a.elem, gv, true), when);
    }
  }
  if (mismatches > reported) report += fmt::format("... {} mismatching elements in total\n", mismatches);
  return report;
}

uint64_t ulpDistance(uint64_t a, uint64_t b, uint32_t bytes) {
  const uint32_t w = 8 * bytes;
  const uint64_t sign = uint64_t(1) << (w - 1), mag = sign - 1;
  const uint32_t mant = w == 16 ? 10 : w == 32 ? 23 : 52;
  auto isNan = [&](uint64_t x) { return (x & mag) > (mag >> mant << mant); };
  if (isNan(a) || isNan(b)) return isNan(a) && isNan(b) ? 0 : UINT64_MAX;
  // Sign-magnitude onto a line where neighbouring floats are neighbouring integers (both zeros at 0).
  auto line = [&](uint64_t x) {
    return x & sign ? -static_cast<__int128>(x & mag) : static_cast<__int128>(x & mag);
  };
  const __int128 d = line(a) - line(b);
  return uint64_t(d < 0 ? -d : d);
}

std::string compareUlps(const RunSpec& spec, const BufferSet& expected, const BufferSet& actual,
                        uint64_t& maxUlps) {
  maxUlps = 0;
  if (expected.size() != spec.args.size() || actual.size() != spec.args.size()) {
    maxUlps = UINT64_MAX;
    return "buffer sets differ in size\n";
  }
  std::string report;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    const auto &e = expected[i], &g = actual[i];
    if (!a.isBuffer || e == g) continue;
    const uint32_t eb = a.elem.bytes;
    uint64_t worst = 0, differing = 0, at = 0;
    for (uint64_t k = 0; k + eb <= std::min(e.size(), g.size()); k += eb) {
      const uint64_t ev = getLE(e, k, eb), gv = getLE(g, k, eb);
      if (ev == gv) continue;
      ++differing;
      const uint64_t d = a.elem.isFloat ? ulpDistance(ev, gv, eb) : UINT64_MAX;
      if (d >= worst) worst = d, at = k / eb;
    }
    if (e.size() != g.size()) worst = UINT64_MAX;
    maxUlps = std::max(maxUlps, worst);
    report += fmt::format("argument {}: {} element(s) differ, the most at element {} ({} vs {}): {}\n",
                          describeArg(a), differing, at, formatElem(a.elem, getLE(e, at * eb, eb), true),
                          formatElem(a.elem, getLE(g, at * eb, eb), true),
                          worst == UINT64_MAX ? std::string("not a float difference")
                                              : fmt::format("{} ulp", worst));
  }
  return report;
}

std::string formatBuffers(const RunSpec& spec, const BufferSet& buffers, size_t maxElems) {
  std::string out;
  for (size_t i = 0; i < spec.args.size() && i < buffers.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (!a.isBuffer) continue;
    const auto& b = buffers[i];
    uint32_t eb = a.elem.bytes;
    uint64_t n = b.size() / eb;
    out += fmt::format("{}:", describeArg(a));
    for (uint64_t k = 0; k < n && k < maxElems; ++k) out += " " + formatElem(a.elem, getLE(b, k * eb, eb), false);
    if (n > maxElems) out += fmt::format(" ... ({} more)", n - maxElems);
    out += "\n";
  }
  return out;
}

} // namespace spvhls::sim
