// FFmpeg 5.1's demuxers, decoders and stream side data, encoders' options (Debian's libavformat-dev,
// libavcodec-dev, libavutil-dev). Only what Swift cannot import is here: the error macros.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/spherical.h>
#include <libavutil/stereo3d.h>

static inline int imagestage_averror_eof(void) { return AVERROR_EOF; }
static inline int imagestage_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int imagestage_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
