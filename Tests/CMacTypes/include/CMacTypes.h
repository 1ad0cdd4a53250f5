// The three names MacTypes.h declares that a geometry library is most likely to reuse, with
// MacTypes.h's own shapes. On macOS and iOS, `import Foundation` brings these into every
// Swift file; ReadmeExampleTests imports this module beside Stage and Panorama so that a
// public name of theirs that clashed would make the examples ambiguous and break the build
// here on Linux too.
#ifndef CMACTYPES_H
#define CMACTYPES_H

struct Point {
  short v;
  short h;
};
typedef struct Point Point;

struct Rect {
  short top;
  short left;
  short bottom;
  short right;
};
typedef struct Rect Rect;

typedef long Size;

#endif
