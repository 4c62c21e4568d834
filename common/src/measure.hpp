// Internal to the common library: the steps every GPU runner takes for one
// variant. Each runner's State supplies the API-specific ones:
//   input                                  the host image
//   poison_outputs(const Image&)           fill every output buffer
//   timed_runs(launch, settings, last_set) run, return each timed run's ms
//   read_output(set, like)                 copy one output buffer back, shaped like `like`
#pragma once

#include <exception>
#include <string>
#include <utility>

#include "gauss/error.hpp"
#include "gauss/runners.hpp"

namespace gauss::detail {

template <class State, class Setup>
VariantResult measure(State& state, Api api, const std::string& name, Setup&& setup, const Image& expected,
                      int tolerance, const RunSettings& settings) {
  VariantResult result;
  result.name = name;
  result.api = api;
  result.bytes_moved = 2 * state.input.bytes();
  try {
    // The output may be shaped differently (a transpose), never larger.
    if (expected.bytes() > state.input.bytes()) throw ApiError("the reference is larger than the output buffers");
    const auto launch = std::forward<Setup>(setup)();
    state.poison_outputs(poison_for(expected));
    int last_set = 0;
    result.time = summarize(state.timed_runs(launch, settings, last_set));
    result.output = state.read_output(last_set, expected);
    result.comparison = compare_images(result.output, expected, tolerance);
  } catch (const Unsupported& reason) {
    result.skipped = reason.what();
  } catch (const cl::Error& error) {  // its what() is only the call's name
    result.error = describe(error);
  } catch (const std::exception& error) {
    result.error = error.what();
  }
  return result;
}

}  // namespace gauss::detail
