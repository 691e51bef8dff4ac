// Golden interpreter: the OpenCL.std extended instructions it implements (scalar or vector).
//   integer: s_abs u_abs s_abs_diff u_abs_diff s_add_sat u_add_sat s_sub_sat u_sub_sat s_hadd u_hadd
//     s_rhadd u_rhadd s_min s_max u_min u_max s_clamp u_clamp clz ctz rotate s_mul_hi u_mul_hi s_mad_hi
//     u_mad_hi s_mad_sat u_mad_sat s_upsample u_upsample popcount
//   floating point (f16/f32/f64, interp_float.cpp): fma mad fabs sqrt fmin fmax fdim floor ceil trunc
//     round rint copysign fmod exp exp2 exp10 log log2 log10 pow sin cos tan asin acos atan atan2 sinh
//     cosh tanh cbrt hypot rsqrt
#include "frontend/grammar.h"
#include "sim/interp_program.h"

namespace spvhls::sim::interp {

bool openclStdOp(uint32_t number, X& op, bool& isFloat) {
  namespace cl = spirv::spv::OpenCLStd;
  static const std::pair<uint32_t, X> integer[] = {
      {cl::S_abs, X::SAbs},         {cl::S_abs_diff, X::SAbsDiff}, {cl::U_abs_diff, X::UAbsDiff},
      {cl::S_add_sat, X::SAddSat},  {cl::U_add_sat, X::UAddSat},   {cl::S_sub_sat, X::SSubSat},
      {cl::U_sub_sat, X::USubSat},  {cl::S_hadd, X::SHadd},        {cl::U_hadd, X::UHadd},
      {cl::S_rhadd, X::SRhadd},     {cl::U_rhadd, X::URhadd},      {cl::S_min, X::SMin},
      {cl::S_max, X::SMax},         {cl::U_min, X::UMin},          {cl::U_max, X::UMax},
      {cl::S_clamp, X::SClamp},     {cl::U_clamp, X::UClamp},      {cl::Clz, X::Clz},
      {cl::Ctz, X::Ctz},            {cl::Rotate, X::Rotate},       {cl::S_mul_hi, X::SMulHi},
      {cl::U_mul_hi, X::UMulHi},    {cl::S_mad_hi, X::SMadHi},     {cl::U_mad_hi, X::UMadHi},
      {cl::S_mad_sat, X::SMadSat},  {cl::U_mad_sat, X::UMadSat},   {cl::S_upsample, X::SUpsample},
      {cl::U_upsample, X::UUpsample}, {cl::Popcount, X::BitCount},
  };
  static const std::pair<uint32_t, X> floating[] = {
      {cl::Fma, X::Fma},           {cl::Mad, X::Mad},      {cl::Fabs, X::Fabs},   {cl::Sqrt, X::Sqrt},
      {cl::Fmin, X::Fmin},         {cl::Fmax, X::Fmax},    {cl::Fdim, X::Fdim},   {cl::Floor, X::Floor},
      {cl::Ceil, X::Ceil},         {cl::Trunc, X::Trunc},  {cl::Round, X::Round}, {cl::Rint, X::Rint},
      {cl::Copysign, X::Copysign}, {cl::Fmod, X::FmodStd}, {cl::Exp, X::Exp},     {cl::Exp2, X::Exp2},
      {cl::Exp10, X::Exp10},       {cl::Log, X::Log},      {cl::Log2, X::Log2},   {cl::Log10, X::Log10},
      {cl::Pow, X::Pow},           {cl::Sin, X::Sin},      {cl::Cos, X::Cos},     {cl::Tan, X::Tan},
      {cl::Asin, X::Asin},         {cl::Acos, X::Acos},    {cl::Atan, X::Atan},   {cl::Atan2, X::Atan2},
      {cl::Sinh, X::Sinh},         {cl::Cosh, X::Cosh},    {cl::Tanh, X::Tanh},   {cl::Cbrt, X::Cbrt},
      {cl::Hypot, X::Hypot},       {cl::Rsqrt, X::Rsqrt},
  };
  for (auto [num, x] : integer)
    if (num == number) {
      op = x;
      isFloat = false;
      return true;
    }
  for (auto [num, x] : floating)
    if (num == number) {
      op = x;
      isFloat = true;
      return true;
    }
  return false;
}

} // namespace spvhls::sim::interp
