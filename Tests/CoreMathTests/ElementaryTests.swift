import CoreMath
