// Compile benchmark: compiles each input (SPIR-V -> Verilog text in memory, every stage of `spvhls
// compile` except writing files) `repeat` times in a fresh process of its own and prints the time per
// compile and the process's peak resident set size (wait4's rusage), so that one input's memory does
// not hide another's. Without inputs it compiles every example and regression kernel of the build.
// Usage: bench_compile [--repeat N] [--cluster auto|stall-free|stall-enable] [inputs...]
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/pipeline.h"

using namespace spvhls;
namespace fs = std::filesystem;

namespace {

struct Options {
  int repeat = 20;
  rtl::ClusterMode cluster = rtl::ClusterMode::Auto;
  std::vector<std::string> inputs;
};

// The child: compile `repeat` times, print seconds per compile on the pipe (or "error: ...").
int child(const Options& o, const std::string& path, int fd) {
  std::string out;
  try {
    driver::CompileOptions co;
    co.cluster = o.cluster;
    size_t bytes = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < o.repeat; ++i) {
      driver::LoadedModule m = driver::loadModule(path);
      driver::Compiled c = driver::compile(m, path, co);
      for (const auto& f : c.rtl.files) bytes += f.second.size();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out = fmt::format("ok {} {}", s / o.repeat, bytes / o.repeat);
  } catch (const std::exception& e) {
    out = fmt::format("error {}", e.what());
  }
  ssize_t n = write(fd, out.data(), out.size());
  return n == ssize_t(out.size()) ? 0 : 1;
}

std::vector<std::string> defaultInputs() {
  std::vector<std::string> in;
  for (const char* dir : {SPVHLS_BINARY_DIR "/examples", SPVHLS_SOURCE_DIR "/examples", SPVHLS_BINARY_DIR "/regress",
                          SPVHLS_BINARY_DIR "/bench"})
    if (fs::is_directory(dir))
      for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".spv" || e.path().extension() == ".spvasm") in.push_back(e.path().string());
  std::sort(in.begin(), in.end());
  return in;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) o.repeat = std::max(1, std::atoi(argv[++i]));
    else if (a == "--cluster" && i + 1 < argc) {
      std::string m = argv[++i];
      o.cluster = m == "stall-free" ? rtl::ClusterMode::StallFree
                  : m == "stall-enable" ? rtl::ClusterMode::StallEnable : rtl::ClusterMode::Auto;
    } else if (a == "--help" || a == "-h") {
      fmt::print("usage: bench_compile [--repeat N] [--cluster auto|stall-free|stall-enable] [inputs...]\n");
      return 0;
    } else o.inputs.push_back(a);
  }
  if (o.inputs.empty()) o.inputs = defaultInputs();
  if (o.inputs.empty()) {
    fmt::print(stderr, "bench_compile: no inputs (build the examples first)\n");
    return 2;
  }
  fmt::print("{:<28} {:>12} {:>10} {:>12}\n", "input", "ms/compile", "peak MB", "Verilog KB");
  double total = 0;
  double maxRss = 0;
  int failures = 0;
  for (const std::string& path : o.inputs) {
    int fds[2];
    if (pipe(fds) != 0) return 2;
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      _exit(child(o, path, fds[1]));
    }
    close(fds[1]);
    std::string msg;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) msg.append(buf, size_t(n));
    close(fds[0]);
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    std::string name = fs::path(path).filename().string();
    double rssMb = double(ru.ru_maxrss) / 1024; // kilobytes on Linux
    double sec = 0;
    size_t bytes = 0;
    if (msg.rfind("ok ", 0) == 0 && std::sscanf(msg.c_str() + 3, "%lf %zu", &sec, &bytes) == 2) {
      fmt::print("{:<28} {:>12.2f} {:>10.1f} {:>12.1f}\n", name, sec * 1e3, rssMb, bytes / 1024.0);
      total += sec;
      maxRss = std::max(maxRss, rssMb);
    } else {
      // A kernel the hardware rejects (on purpose, e.g. a regression for a clear diagnostic) is listed.
      fmt::print("{:<28} {:>12} {:>10.1f} ({})\n", name, "rejected", rssMb, msg.substr(0, 80));
      if (msg.rfind("error ", 0) != 0) ++failures;
    }
  }
  fmt::print("total {:.2f} ms per compile of all inputs; largest peak RSS {:.1f} MB ({} compiles each)\n", total * 1e3,
             maxRss, o.repeat);
  return failures ? 1 : 0;
}
