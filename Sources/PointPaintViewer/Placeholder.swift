public enum ViewerPlaceholder {}
