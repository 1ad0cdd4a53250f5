// SwiftPM builds a C target from at least one source file; the module is its header.
#include "CMacTypes.h"
