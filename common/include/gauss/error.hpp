/// @file error.hpp
/// @brief The exit statuses every chapter executable shares, and the errors
///        that lead to them.
#pragma once

#include <stdexcept>
#include <string>

namespace gauss {

/// Exit statuses of every chapter executable.
enum ExitStatus : int {
  kExitOk = 0,        ///< every variant that ran matches the reference
  kExitMismatch = 1,  ///< a variant does not match the reference (or failed while running)
  kExitBadInput = 2,  ///< bad usage or bad input: options, image file, no such device
};

/// Bad usage or bad input (a missing file, an impossible size, no device).
/// The program prints the message on one line and exits with kExitBadInput.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by a variant's set-up when the device cannot run it at all (a
/// work-group larger than the kernel allows on this device, a missing
/// feature). The variant is reported as skipped, with this reason, and does
/// not fail the run: it is not wrong, it is not possible here.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failed OpenCL or CUDA call while running a variant. The message names
/// the call, the error and what to do about it.
class ApiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gauss
