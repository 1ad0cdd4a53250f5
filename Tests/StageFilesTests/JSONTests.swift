import StageFiles
