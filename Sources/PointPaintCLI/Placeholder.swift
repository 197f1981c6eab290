public enum PointPaintCLIPlaceholder {}
