// Whether this build holds kernels the current GPU can run: machine code for its architecture, or PTX the driver
// can compile for it. A GPU newer than the build's PTX, or older than its lowest architecture, has none, and every
// launch would fail with cudaErrorNoKernelImageForDevice; the engine says so up front instead.
#pragma once

#include <string>

namespace receipt::cuda {

// "" when a kernel of this build loads on the current device; else one sentence naming the device's compute
// capability and what to do. Never throws.
std::string kernel_image_problem();

}  // namespace receipt::cuda
