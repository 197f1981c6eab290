import PointPaintCLI

PointPaintTool.main()
