#include "gauss/opencl.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "gauss/error.hpp"

namespace gauss {

const char* cl_error_name(cl_int code) {
  switch (code) {
    case 0:
      return "CL_SUCCESS";
    case -1:
      return "CL_DEVICE_NOT_FOUND";
    case -2:
      return "CL_DEVICE_NOT_AVAILABLE";
    case -3:
      return "CL_COMPILER_NOT_AVAILABLE";
    case -4:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case -5:
      return "CL_OUT_OF_RESOURCES";
    case -6:
      return "CL_OUT_OF_HOST_MEMORY";
    case -7:
      return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case -8:
      return "CL_MEM_COPY_OVERLAP";
    case -9:
      return "CL_IMAGE_FORMAT_MISMATCH";
    case -10:
      return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case -11:
      return "CL_BUILD_PROGRAM_FAILURE";
    case -12:
      return "CL_MAP_FAILURE";
    case -13:
      return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case -14:
      return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case -15:
      return "CL_COMPILE_PROGRAM_FAILURE";
    case -16:
      return "CL_LINKER_NOT_AVAILABLE";
    case -17:
      return "CL_LINK_PROGRAM_FAILURE";
    case -18:
      return "CL_DEVICE_PARTITION_FAILED";
    case -19:
      return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case -30:
      return "CL_INVALID_VALUE";
    case -31:
      return "CL_INVALID_DEVICE_TYPE";
    case -32:
      return "CL_INVALID_PLATFORM";
    case -33:
      return "CL_INVALID_DEVICE";
    case -34:
      return "CL_INVALID_CONTEXT";
    case -35:
      return "CL_INVALID_QUEUE_PROPERTIES";
    case -36:
      return "CL_INVALID_COMMAND_QUEUE";
    case -37:
      return "CL_INVALID_HOST_PTR";
    case -38:
      return "CL_INVALID_MEM_OBJECT";
    case -39:
      return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case -40:
      return "CL_INVALID_IMAGE_SIZE";
    case -41:
      return "CL_INVALID_SAMPLER";
    case -42:
      return "CL_INVALID_BINARY";
    case -43:
      return "CL_INVALID_BUILD_OPTIONS";
    case -44:
      return "CL_INVALID_PROGRAM";
    case -45:
      return "CL_INVALID_PROGRAM_EXECUTABLE";
    case -46:
      return "CL_INVALID_KERNEL_NAME";
    case -47:
      return "CL_INVALID_KERNEL_DEFINITION";
    case -48:
      return "CL_INVALID_KERNEL";
    case -49:
      return "CL_INVALID_ARG_INDEX";
    case -50:
      return "CL_INVALID_ARG_VALUE";
    case -51:
      return "CL_INVALID_ARG_SIZE";
    case -52:
      return "CL_INVALID_KERNEL_ARGS";
    case -53:
      return "CL_INVALID_WORK_DIMENSION";
    case -54:
      return "CL_INVALID_WORK_GROUP_SIZE";
    case -55:
      return "CL_INVALID_WORK_ITEM_SIZE";
    case -56:
      return "CL_INVALID_GLOBAL_OFFSET";
    case -57:
      return "CL_INVALID_EVENT_WAIT_LIST";
    case -58:
      return "CL_INVALID_EVENT";
    case -59:
      return "CL_INVALID_OPERATION";
    case -60:
      return "CL_INVALID_GL_OBJECT";
    case -61:
      return "CL_INVALID_BUFFER_SIZE";
    case -62:
      return "CL_INVALID_MIP_LEVEL";
    case -63:
      return "CL_INVALID_GLOBAL_WORK_SIZE";
    case -64:
      return "CL_INVALID_PROPERTY";
    case -65:
      return "CL_INVALID_IMAGE_DESCRIPTOR";
    case -66:
      return "CL_INVALID_COMPILER_OPTIONS";
    case -67:
      return "CL_INVALID_LINKER_OPTIONS";
    case -68:
      return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case -69:
      return "CL_INVALID_PIPE_SIZE";
    case -70:
      return "CL_INVALID_DEVICE_QUEUE";
    case -71:
      return "CL_INVALID_SPEC_ID";
    case -72:
      return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
  }
}

const char* cl_error_hint(cl_int code) {
  switch (code) {
    case -1001:
      return "no OpenCL platform: install pocl-opencl-icd (OpenCL on any CPU) or your GPU's OpenCL driver";
    case -1:
      return "no such device: --list-devices shows what there is";
    case -4:
      return "not enough device memory for the buffers: try a smaller --size";
    case -5:
      return "the device ran out of resources: a work-group too large for the kernel's registers or local "
             "memory, or an out-of-bounds access (run it under oclgrind)";
    case -6:
      return "the host ran out of memory: try a smaller --size";
    case -7:
      return "the queue was created without CL_QUEUE_PROFILING_ENABLE";
    case -11:
      return "the kernel did not compile: the build log says where";
    case -43:
      return "the build options are malformed";
    case -46:
      return "the program has no __kernel of that name";
    case -51:
      return "the host's argument size differs from the kernel parameter's (check struct layouts)";
    case -52:
      return "a kernel argument was never set";
    case -54:
      return "the global size must be a multiple of the work-group size (OpenCL 1.2), and the work-group no "
             "larger than the device and the kernel allow";
    case -55:
      return "a work-group dimension is larger than CL_DEVICE_MAX_WORK_ITEM_SIZES allows";
    case -61:
      return "a buffer of size zero, or larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE";
    case -63:
      return "the global size is zero or too large for the device";
    default:
      return "";
  }
}

std::string describe(const cl::Error& error) {
  std::string text =
      std::string(error.what()) + ": " + cl_error_name(error.err()) + " (" + std::to_string(error.err()) + ")";
  const std::string hint = cl_error_hint(error.err());
  if (!hint.empty()) text += ": " + hint;
  return text;
}

std::string OpenClDeviceInfo::summary() const {
  return name + " (" + platform_name + "; " + version + "; driver " + driver + ")";
}

namespace {

std::string trimmed(std::string text) {
  // Some drivers pad their strings with spaces or a trailing NUL.
  while (!text.empty() && (text.back() == ' ' || text.back() == '\0')) text.pop_back();
  const std::size_t first = text.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : text.substr(first);
}

}  // namespace

namespace {

// With GAUSS_DUMP_CL_BINARIES=<folder>, every program built is also written
// there as the driver returns it: PTX on NVIDIA, which shows what the OpenCL
// compiler made of a kernel (chapter 06 reads it). Best effort: a failure to
// write is reported and otherwise ignored.
void dump_binary_to(const char* folder, const cl::Program& program, const OpenClSource& source,
                    const std::string& options) {
  const std::string stem = std::filesystem::path(source.path).stem().string();
  std::string suffix;
  for (char c : options) suffix += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  const std::string path = std::string(folder) + "/" + stem + (suffix.empty() ? "" : "." + suffix) + ".bin";
  const std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  std::FILE* file = binaries.empty() ? nullptr : std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "GAUSS_DUMP_CL_BINARIES: cannot write %s\n", path.c_str());
    return;
  }
  std::fwrite(binaries.front().data(), 1, binaries.front().size(), file);
  std::fclose(file);
}

}  // namespace

void dump_binary(const cl::Program& program, const OpenClSource& source, const std::string& options) {
  if (const char* folder = std::getenv("GAUSS_DUMP_CL_BINARIES")) dump_binary_to(folder, program, source, options);
}

std::vector<OpenClDeviceInfo> list_opencl_devices() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& error) {
    if (error.err() == -1001) throw InputError(cl_error_hint(-1001));
    throw InputError("cannot list OpenCL platforms: " + describe(error));
  }
  if (platforms.empty()) throw InputError(cl_error_hint(-1001));

  std::vector<OpenClDeviceInfo> devices;
  for (const cl::Platform& platform : platforms) {
    std::vector<cl::Device> found;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &found);
    } catch (const cl::Error&) {
      continue;  // a platform without devices (CL_DEVICE_NOT_FOUND)
    }
    for (const cl::Device& device : found) {
      OpenClDeviceInfo info;
      info.platform = platform;
      info.device = device;
      info.name = trimmed(device.getInfo<CL_DEVICE_NAME>());
      info.platform_name = trimmed(platform.getInfo<CL_PLATFORM_NAME>());
      info.version = trimmed(device.getInfo<CL_DEVICE_VERSION>());
      info.driver = trimmed(device.getInfo<CL_DRIVER_VERSION>());
      info.is_gpu = (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
      info.compute_units = static_cast<int>(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
      info.global_memory = static_cast<std::size_t>(device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
      info.global_cache = static_cast<std::size_t>(device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>());
      info.local_memory = static_cast<std::size_t>(device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
      info.max_work_group = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.max_buffer = static_cast<std::size_t>(device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
      devices.push_back(std::move(info));
    }
  }
  if (devices.empty()) {
    throw InputError(
        "no OpenCL device: the installed platforms list none; install pocl-opencl-icd (OpenCL on "
        "any CPU) or your GPU's OpenCL driver");
  }
  // GPUs first, so that device 0, the default, is a GPU wherever there is one.
  std::stable_partition(devices.begin(), devices.end(), [](const OpenClDeviceInfo& d) { return d.is_gpu; });
  for (std::size_t i = 0; i < devices.size(); ++i) devices[i].index = static_cast<int>(i);
  return devices;
}

OpenClDeviceInfo select_opencl_device(int requested) {
  std::vector<OpenClDeviceInfo> devices = list_opencl_devices();
  const int index = requested < 0 ? 0 : requested;
  if (index >= static_cast<int>(devices.size())) {
    throw InputError("no OpenCL device " + std::to_string(requested) + ": --list-devices shows " +
                     std::to_string(devices.size()) + " (numbered from 0)");
  }
  return devices[static_cast<std::size_t>(index)];
}

OpenClSession::OpenClSession(const OpenClDeviceInfo& device) : info(device) {
  try {
    context = cl::Context(device.device);
    queue = cl::CommandQueue(context, device.device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& error) {
    throw InputError("cannot open OpenCL device " + device.name + ": " + describe(error));
  }
}

namespace {

// Compilers name the program in their messages as they please ("<kernel>" on
// NVIDIA, "<stdin>" or a temporary file on others) and not all of them honour
// #line. The source is passed exactly as the file is, so their line numbers
// are the file's: put the file's path in front of them.
std::string with_file_name(const std::string& log, const std::string& path) {
  static const std::regex location(R"((^|\s)[^\s:]+:(\d+):(\d+):)");
  std::istringstream lines(log);
  std::string line;
  std::string out;
  while (std::getline(lines, line))
    out += std::regex_replace(line, location, "$1" + path + ":$2:$3:", std::regex_constants::format_first_only) + "\n";
  return out;
}

}  // namespace

namespace {

struct SourceReplacement {
  std::string file_name;  // the embedded file it replaces, e.g. "blur_naive.cl"
  std::string path;       // the file given on the command line
  std::string text;
};
// Set once by replace_opencl_source() (from the command line), read by build().
std::vector<SourceReplacement>& replacements() {
  static std::vector<SourceReplacement> all;
  return all;
}

}  // namespace

void replace_opencl_source(const std::string& file_name, const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError("--kernel-file " + path + ": is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError("--kernel-file " + path + ": no such file, or it cannot be read");
  std::ostringstream text;
  text << file.rdbuf();
  if (text.str().empty()) throw InputError("--kernel-file " + path + ": is empty");
  replacements().push_back({file_name, path, text.str()});
}

cl::Program OpenClSession::build(const OpenClSource& embedded, const std::string& options) {
  OpenClSource source = embedded;
  for (const SourceReplacement& r : replacements()) {
    if (r.file_name == std::filesystem::path(embedded.path).filename())
      source = OpenClSource{r.path.c_str(), r.text.c_str()};
  }
  const std::string all_options = "-cl-std=CL1.2 " + options;
  cl::Program program(context, std::string(source.text));
  std::string failure;
  try {
    program.build(std::vector<cl::Device>{info.device}, all_options.c_str());
  } catch (const cl::Error& error) {
    failure = describe(error);
  }
  if (!failure.empty()) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(info.device);
    } catch (const cl::Error&) {
      log = "(the driver returned no build log)";
    }
    throw ApiError(std::string("building ") + source.path + " failed (options: " + all_options + "): " + failure +
                   "\n" + with_file_name(log, source.path));
  }
  dump_binary(program, source, options);
  return program;
}

cl::Kernel OpenClSession::kernel(const OpenClSource& source, const char* name, const std::string& options) {
  cl::Program program = build(source, options);
  try {
    return cl::Kernel(program, name);
  } catch (const cl::Error& error) {
    throw ApiError(std::string("kernel '") + name + "' in " + source.path + ": " + describe(error));
  }
}

double event_span_ms(const cl::Event& first, const cl::Event& last) {
  const cl_ulong start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return static_cast<double>(end - start) * 1e-6;
}

}  // namespace gauss
