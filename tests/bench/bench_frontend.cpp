// Frontend benchmark: synthesizes a valid kernel of about one million instructions (blocks of integer
// arithmetic, loads and stores through a CrossWorkgroup pointer, linked by branches), writes it as a
// .spv and a .spvasm file, then, in a fresh process each (this program with --read), times
// readModuleFile + buildModuleView and prints the peak resident set size (getrusage).
// Usage: bench_frontend [instructions [directory]]   |   bench_frontend --read file
#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/module.h"

using namespace spvhls;
using namespace spvhls::spirv;

namespace {

long peakRssMb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024; // kilobytes on Linux
}

template <class F> double seconds(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class Synth {
public:
  Module m;
  Id next = 1;

  Id fresh() { return next++; }
  void add(Op op, Id type, Id result, std::vector<uint32_t> operands) {
    Instruction inst;
    inst.opcode = static_cast<uint16_t>(op);
    inst.resultType = type;
    inst.resultId = result;
    inst.operands = std::move(operands);
    m.insts.push_back(std::move(inst));
  }
  static std::vector<uint32_t> str(const std::string& s) {
    std::vector<uint32_t> w((s.size() + 4) / 4, 0);
    for (size_t i = 0; i < s.size(); ++i)
      w[i / 4] |= uint32_t(uint8_t(s[i])) << (8 * (i % 4));
    return w;
  }

  // About `target` instructions: a kernel k(global uint* p) whose body is a chain of blocks.
  void build(size_t target) {
    namespace SC = spv::StorageClass;
    Id tVoid = fresh(), tUint = fresh(), tUlong = fresh(), tBool = fresh(), tPtr = fresh(), tFn = fresh();
    Id c1 = fresh(), c3 = fresh(), c7 = fresh(), cl0 = fresh(), k = fresh(), p = fresh();
    add(Op::OpCapability, 0, 0, {spv::Capability::Addresses});
    add(Op::OpCapability, 0, 0, {spv::Capability::Kernel});
    add(Op::OpCapability, 0, 0, {spv::Capability::Int64});
    add(Op::OpMemoryModel, 0, 0, {spv::AddressingModel::Physical64, spv::MemoryModel::OpenCL});
    std::vector<uint32_t> ep{spv::ExecutionModel::Kernel, k};
    for (uint32_t w : str("k"))
      ep.push_back(w);
    add(Op::OpEntryPoint, 0, 0, ep);
    add(Op::OpTypeVoid, 0, tVoid, {});
    add(Op::OpTypeInt, 0, tUint, {32, 0});
    add(Op::OpTypeInt, 0, tUlong, {64, 0});
    add(Op::OpTypeBool, 0, tBool, {});
    add(Op::OpTypePointer, 0, tPtr, {SC::CrossWorkgroup, tUint});
    add(Op::OpTypeFunction, 0, tFn, {tVoid, tPtr});
    add(Op::OpConstant, tUint, c1, {1});
    add(Op::OpConstant, tUint, c3, {3});
    add(Op::OpConstant, tUint, c7, {7});
    add(Op::OpConstant, tUlong, cl0, {0, 0});
    add(Op::OpFunction, tVoid, k, {0, tFn});
    add(Op::OpFunctionParameter, tPtr, p, {});
    Id label = fresh();
    add(Op::OpLabel, 0, label, {});
    Id acc = c1;
    size_t inBlock = 0;
    while (m.insts.size() + 3 < target) {
      Id a = fresh(), b = fresh(), c = fresh(), idx = fresh(), addr = fresh(), ld = fresh(), cmp = fresh(),
         sel = fresh();
      add(Op::OpIAdd, tUint, a, {acc, c1});
      add(Op::OpIMul, tUint, b, {a, c3});
      add(Op::OpBitwiseXor, tUint, c, {b, c7});
      add(Op::OpUConvert, tUlong, idx, {c});
      add(Op::OpInBoundsPtrAccessChain, tPtr, addr, {p, idx});
      add(Op::OpLoad, tUint, ld, {addr});
      add(Op::OpULessThan, tBool, cmp, {ld, c});
      add(Op::OpSelect, tUint, sel, {cmp, ld, c});
      add(Op::OpStore, 0, 0, {addr, sel});
      acc = sel;
      if (++inBlock == 10) { // a new block every ~100 instructions
        Id nextLabel = fresh();
        add(Op::OpBranch, 0, 0, {nextLabel});
        add(Op::OpLabel, 0, nextLabel, {});
        inBlock = 0;
      }
    }
    add(Op::OpReturn, 0, 0, {});
    add(Op::OpFunctionEnd, 0, 0, {});
    m.bound = next;
    (void)cl0;
  }
};

} // namespace

// Reads one file (binary or text, by content) and validates it, in a fresh process so that the peak
// RSS is the frontend's own and not the synthesizer's.
int readAndValidate(const std::string& path) {
  try {
    Module m;
    double tRead = seconds([&] { m = readModuleFile(path); });
    size_t functions = 0;
    double tView = seconds([&] { functions = buildModuleView(m).functions.size(); });
    fmt::print("{}: {} instructions; read {:.3f} s + buildModuleView {:.3f} s = {:.3f} s; peak RSS {} MB\n",
               path, m.insts.size(), tRead, tView, tRead + tView, peakRssMb());
    return functions == 1 ? 0 : 1;
  } catch (const DiagnosticError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--read") return readAndValidate(argv[2]);
  size_t target = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  std::string dir = argc > 2 ? argv[2] : "/tmp";
  std::string binPath = dir + "/bench_frontend.spv", textPath = dir + "/bench_frontend.spvasm";
  {
    Synth s;
    s.build(target);
    std::vector<uint32_t> words = writeBinary(s.m);
    std::ofstream(binPath, std::ios::binary)
        .write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
    std::ofstream(textPath) << writeText(s.m, TextOptions{.friendlyNames = false, .header = true});
    fmt::print("synthesized {} instructions: {} ({:.1f} MB), {} ({:.1f} MB)\n", s.m.insts.size(), binPath,
               words.size() * 4 / 1e6, textPath, std::filesystem::file_size(textPath) / 1e6);
  }
  int status = 0;
  for (const std::string& path : {binPath, textPath}) {
    std::fflush(stdout);
    std::string cmd = fmt::format("'{}' --read '{}'", argv[0], path);
    status |= std::system(cmd.c_str());
  }
  return status == 0 ? 0 : 1;
}
