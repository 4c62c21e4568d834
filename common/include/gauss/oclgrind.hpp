// Knowing when the OpenCL device is Oclgrind, the
// simulator the tests run every kernel under (tests/cmake/run_oclgrind.cmake).
#pragma once

#include <string>

#include "gauss/opencl.hpp"

namespace gauss {

/// True when @p cl runs on Oclgrind's simulated device. Two things are done
/// differently there, each saying so where it happens: chapter 09 does not
/// run its racy kernels (Oclgrind rightly reports their data race, which is
/// what they exist to show), and chapter 08's overlap uploads the whole image
/// at once, because Oclgrind 21.10 forgets which bytes of a buffer are
/// initialised when clEnqueueWriteBuffer writes at a non-zero offset (a false
/// "uninitialized value" report; the fix would be in its Uninitialized
/// plugin's hostMemoryStore, which re-allocates the buffer's shadow at the
/// write's size).
inline bool is_oclgrind(const OpenClSession& cl) { return cl.info.platform_name.find("Oclgrind") != std::string::npos; }

}  // namespace gauss
