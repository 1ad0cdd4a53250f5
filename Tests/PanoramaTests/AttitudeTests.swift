import Panorama
