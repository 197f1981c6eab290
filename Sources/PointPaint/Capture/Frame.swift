/// One loaded frame: the frame type of every capture source (`CaptureFrame`), under the name
/// the reader's frames had before captures came from other formats.
public typealias Frame = CaptureFrame
