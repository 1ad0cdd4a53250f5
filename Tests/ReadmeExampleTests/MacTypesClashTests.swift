import CMacTypes
import CoreMath
import Panorama
import Stage
import Testing

/// MacTypes.h's `Point`, `Rect` and `Size` (here from a C module with the same shapes) stay
/// usable, unqualified, beside every public name of the products: were `Stage` or
/// `Panorama` to declare one of them again, these lines would be "ambiguous for type lookup"
/// and this target would not build, as an iOS app's would not.
@Suite struct MacTypesClashTests {
  @Test func macTypesNamesResolveToMacTypesBesideTheProducts() {
    let point = Point(v: 1, h: 2)
    let rect = Rect(top: 0, left: 0, bottom: 10, right: 20)
    let size: Size = 64
    #expect(point.h == 2 && rect.right == 20 && size == 64)
    // The products' own geometry has its own names.
    let stageRect = StageRect(origin: StagePoint(x: 0, y: 0), size: StageSize(width: 20, height: 10))
    #expect(stageRect.maxX == Double(rect.right))
  }
}
