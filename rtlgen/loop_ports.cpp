// The wires and connections by which a parent module (the top's FSM, an outer pipeline) merges a loop
// module instance's memory requests onto its own port (rtlgen/loop_gen.h).
#include <fmt/compile.h>
#include <fmt/format.h>

#include "rtlgen/loop_gen.h"

namespace spvhls::rtl {

using nl::ExprP;

nl::MemPort loopPortWires(nl::ModuleBuilder& b, const std::string& prefix, uint32_t m, unsigned dataWidth,
                          bool response) {
  auto wire = [&](const char* f, unsigned width) {
    return b.wire(fmt::format(FMT_COMPILE("{}m{}_{}"), prefix, m, f), width);
  };
  nl::MemPort q;
  q.dataWidth = dataWidth;
  q.reqValid = wire("req_valid", 1);
  q.reqWrite = wire("req_write", 1);
  q.reqAddr = wire("req_addr", nl::kPortAddrWidth);
  q.reqSize = wire("req_size", q.sizeWidth());
  q.reqWdata = wire("req_wdata", q.dataWidth);
  if (response) q.respValid = wire("resp_valid", 1);
  return q;
}

void connectLoopPort(nl::Instance& inst, uint32_t m, const nl::MemPort& q, const ExprP& reqReady,
                     const ExprP& respValid, const ExprP& respData) {
  auto port = [&](const char* f) { return fmt::format(FMT_COMPILE("m{}_{}"), m, f); };
  auto& c = inst.connections;
  c.emplace_back(port("req_valid"), q.reqValid);
  c.emplace_back(port("req_write"), q.reqWrite);
  c.emplace_back(port("req_addr"), q.reqAddr);
  c.emplace_back(port("req_size"), q.reqSize);
  c.emplace_back(port("req_wdata"), q.reqWdata);
  c.emplace_back(port("req_ready"), reqReady);
  if (!respValid) return;
  c.emplace_back(port("resp_valid"), respValid);
  c.emplace_back(port("resp_data"), respData);
}

} // namespace spvhls::rtl
