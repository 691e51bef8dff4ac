// SystemC / TLM-2.0 side of an spvhls kernel (docs/systemc.md). Copied next to the generated Verilog.
//
// spvhls::MemoryPortToTlm<W> turns one memory port of a kernel (docs/hardware-interface.md: a
// valid/ready request channel, in-order read responses) into TLM-2.0 blocking transports on an
// initiator socket: a request accepted at a rising edge becomes one b_transport (TLM_READ_COMMAND or
// TLM_WRITE_COMMAND, the request's address and size); a read's data comes back on resp_data after the
// delay the target annotates (at least one cycle; in order, one response per cycle). req_ready can be
// withheld at random (back-pressure, `readyProb`, seeded). A request the protocol forbids (a size
// that is not a power of two up to the port's width, an unaligned address) or a target answering
// with an error stops nothing by itself: error() says what happened, the platform decides.
//
// spvhls::Memory is a TLM-2.0 target holding bytes, with a random latency per read (seeded):
// what the test bench of `spvhls sim --systemc` binds to every port, and a start for a platform's own.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace spvhls {

// The bytes of a data port's value, least significant first (Verilator's SystemC types: uint64_t up
// to 64 bits, sc_bv above).
template <unsigned W>
using PortData = std::conditional_t<(W <= 64), uint64_t, sc_dt::sc_bv<W>>;

template <unsigned W>
void toBytes(const PortData<W>& v, uint8_t* out) {
  if constexpr (W <= 64) {
    for (unsigned i = 0; i < W / 8; ++i) out[i] = uint8_t(v >> (8 * i));
  } else {
    for (unsigned w = 0; w < W / 32; ++w) {
      const uint32_t x = v.get_word(int(w));
      for (unsigned i = 0; i < 4; ++i) out[4 * w + i] = uint8_t(x >> (8 * i));
    }
  }
}

template <unsigned W>
PortData<W> fromBytes(const uint8_t* in) {
  PortData<W> v{};
  if constexpr (W <= 64) {
    for (unsigned i = 0; i < W / 8; ++i) v |= uint64_t(in[i]) << (8 * i);
  } else {
    for (unsigned w = 0; w < W / 32; ++w) {
      uint32_t x = 0;
      for (unsigned i = 0; i < 4; ++i) x |= uint32_t(in[4 * w + i]) << (8 * i);
      v.set_word(int(w), x);
    }
  }
  return v;
}

// The signals between a kernel's memory port and its MemoryPortToTlm.
template <unsigned W>
struct PortWires {
  sc_core::sc_signal<bool> req_valid, req_ready, req_write, resp_valid;
  sc_core::sc_signal<uint64_t> req_addr;
  sc_core::sc_signal<uint32_t> req_size;
  sc_core::sc_signal<PortData<W>> req_wdata, resp_data;
  explicit PortWires(const std::string& prefix)
      : req_valid((prefix + "_req_valid").c_str()), req_ready((prefix + "_req_ready").c_str()),
        req_write((prefix + "_req_write").c_str()), resp_valid((prefix + "_resp_valid").c_str()),
        req_addr((prefix + "_req_addr").c_str()), req_size((prefix + "_req_size").c_str()),
        req_wdata((prefix + "_req_wdata").c_str()), resp_data((prefix + "_resp_data").c_str()) {}
};

// What a platform (or the test bench) asks of any memory port, whatever its width.
class MemoryPort {
public:
  virtual ~MemoryPort() = default;
  virtual tlm::tlm_initiator_socket<>& initiator() = 0;
  virtual void setBackPressure(double p, uint64_t seed) = 0;
  virtual const std::string& error() const = 0;
  virtual uint64_t reads() const = 0;
  virtual uint64_t writes() const = 0;
  virtual size_t outstanding() const = 0;
  virtual bool refused() const = 0;
  virtual uint64_t lastTraffic() const = 0;
  virtual std::string state() const = 0;
};

template <unsigned W>
class MemoryPortToTlm : public sc_core::sc_module, public MemoryPort {
public:
  static_assert(W >= 64 && W % 64 == 0, "memory ports are 64 bits wide or a wider power of two");
  static constexpr unsigned kBytes = W / 8;

  sc_core::sc_in<bool> clk, rst;
  // The kernel's side (its outputs are inputs here).
  sc_core::sc_in<bool> req_valid, req_write;
  sc_core::sc_out<bool> req_ready;
  sc_core::sc_in<uint64_t> req_addr;
  sc_core::sc_in<uint32_t> req_size;
  sc_core::sc_in<PortData<W>> req_wdata;
  sc_core::sc_out<bool> resp_valid;
  sc_core::sc_out<PortData<W>> resp_data;
  tlm_utils::simple_initiator_socket<MemoryPortToTlm> socket;

  SC_HAS_PROCESS(MemoryPortToTlm);
  MemoryPortToTlm(sc_core::sc_module_name name, sc_core::sc_time period = sc_core::sc_time(10, sc_core::SC_NS))
      : sc_core::sc_module(name), period_(period) {
    SC_METHOD(drive); // inputs of the cycle, while clk is low
    sensitive << clk.neg();
    dont_initialize();
    SC_METHOD(handshake); // at the rising edge, on the values the cycle settled to
    sensitive << clk.pos();
    dont_initialize();
  }

  // Binds this side to the wires of the kernel's port (clk and rst: the kernel's).
  void connect(sc_core::sc_in<bool>& clock, sc_core::sc_in<bool>& reset, PortWires<W>& w) {
    clk(clock);
    rst(reset);
    req_valid(w.req_valid);
    req_write(w.req_write);
    req_ready(w.req_ready);
    req_addr(w.req_addr);
    req_size(w.req_size);
    req_wdata(w.req_wdata);
    resp_valid(w.resp_valid);
    resp_data(w.resp_data);
  }
  tlm::tlm_initiator_socket<>& initiator() override { return socket; }
  // Back-pressure: req_ready is high in a cycle with probability p (seeded; 1: always ready).
  void setBackPressure(double p, uint64_t seed) override {
    readyProb_ = p;
    rng_.seed(seed);
    garbage_.seed(seed ^ 0xA5A5A5A5A5A5A5A5ull);
  }
  const std::string& error() const override { return error_; }
  uint64_t reads() const override { return reads_; }
  uint64_t writes() const override { return writes_; }
  size_t outstanding() const override { return inFlight_.size(); }
  // A request offered in the last cycle and not accepted (done must not come with one pending).
  bool refused() const override { return refused_; }
  uint64_t lastTraffic() const override { return lastTraffic_; } // the last cycle a request or response went
  std::string state() const override {
    return std::string(name()) + ": " +
           (req_valid.read() ? std::string("request pending (") + (req_write.read() ? "write" : "read") + " at " +
                                   std::to_string(req_addr.read()) + ")"
                             : std::string("no request pending")) +
           ", " + std::to_string(inFlight_.size()) + " read responses outstanding, " + std::to_string(reads_) +
           " reads and " + std::to_string(writes_) + " writes accepted";
  }

private:
  struct Response {
    uint64_t due;
    std::vector<uint8_t> data;
  };
  sc_core::sc_time period_;
  double readyProb_ = 1.0;
  std::mt19937_64 rng_{1}, garbage_{2};
  std::deque<Response> inFlight_;
  uint64_t cycle_ = 0, lastDue_ = 0, reads_ = 0, writes_ = 0, lastTraffic_ = 0;
  bool ready_ = false, deliver_ = false, refused_ = false;
  std::string error_;

  double draw() { return double(rng_() >> 11) * 0x1.0p-53; }

  void drive() {
    if (rst.read()) {
      req_ready.write(false);
      resp_valid.write(false);
      inFlight_.clear();
      return;
    }
    ready_ = readyProb_ >= 1.0 || draw() < readyProb_;
    req_ready.write(ready_);
    deliver_ = !inFlight_.empty() && inFlight_.front().due <= cycle_;
    resp_valid.write(deliver_);
    std::vector<uint8_t> bytes(kBytes);
    if (deliver_) bytes = inFlight_.front().data;
    else
      for (auto& b : bytes) b = uint8_t(garbage_()); // a kernel reading a response not given fails
    resp_data.write(fromBytes<W>(bytes.data()));
  }

  void handshake() {
    if (rst.read()) return;
    const uint64_t cycle = cycle_++;
    if (deliver_) {
      inFlight_.pop_front();
      lastTraffic_ = cycle;
      deliver_ = false;
    }
    refused_ = req_valid.read() && !ready_;
    if (!req_valid.read() || !ready_ || !error_.empty()) return;
    lastTraffic_ = cycle;
    const bool write = req_write.read();
    const uint64_t addr = req_addr.read(), size = req_size.read();
    const std::string what = std::string(write ? "write" : "read") + " of " + std::to_string(size) +
                             " bytes at address " + std::to_string(addr) + " at cycle " + std::to_string(cycle);
    if (size == 0 || (size & (size - 1)) != 0 || size > kBytes || addr % size != 0) {
      error_ = std::string(name()) + ": " + what + ": the size must be a power of two up to " +
               std::to_string(kBytes) + " bytes and the address aligned to it";
      return;
    }
    std::vector<uint8_t> data(kBytes);
    if (write) toBytes<W>(req_wdata.read(), data.data());
    tlm::tlm_generic_payload t;
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(addr);
    t.set_data_ptr(data.data());
    t.set_data_length(unsigned(size));
    t.set_streaming_width(unsigned(size));
    t.set_byte_enable_ptr(nullptr);
    t.set_dmi_allowed(false);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    if (t.is_response_error()) {
      error_ = std::string(name()) + ": " + what + ": the target answered " + t.get_response_string();
      return;
    }
    if (write) {
      ++writes_;
      return;
    }
    ++reads_;
    for (uint64_t b = size; b < kBytes; ++b) data[b] = uint8_t(garbage_()); // above the access: undefined
    const uint64_t latency = std::max<uint64_t>(1, uint64_t(delay / period_));
    const uint64_t due = std::max(cycle + latency, lastDue_ + 1); // in order, one per cycle
    inFlight_.push_back(Response{due, std::move(data)});
    lastDue_ = due;
  }
};

// A memory of `bytes` bytes as a TLM-2.0 target: reads and writes inside it succeed (a read's
// latency, drawn in [minLatency, maxLatency] cycles, is annotated on the transport's delay), anything
// else answers TLM_ADDRESS_ERROR_RESPONSE.
class Memory : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<Memory> socket;
  std::vector<uint8_t> bytes;

  Memory(sc_core::sc_module_name name, size_t size, sc_core::sc_time period = sc_core::sc_time(10, sc_core::SC_NS))
      : sc_core::sc_module(name), bytes(size, 0), period_(period) {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void setLatency(uint64_t minLatency, uint64_t maxLatency, uint64_t seed) {
    min_ = minLatency;
    max_ = maxLatency;
    rng_.seed(seed);
  }

private:
  sc_core::sc_time period_;
  uint64_t min_ = 1, max_ = 1;
  std::mt19937_64 rng_{1};

  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t addr = t.get_address(), len = t.get_data_length();
    if (addr > bytes.size() || len > bytes.size() - addr || t.get_byte_enable_ptr()) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (t.is_write()) {
      std::memcpy(&bytes[addr], t.get_data_ptr(), len);
    } else {
      std::memcpy(t.get_data_ptr(), &bytes[addr], len);
      delay += period_ * double(min_ + rng_() % (max_ - min_ + 1));
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

} // namespace spvhls
