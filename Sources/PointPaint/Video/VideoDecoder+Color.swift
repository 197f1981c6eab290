import CFFmpeg

extension VideoDecoder {
    /// The stream's colour description in PointPaint's terms, with the defaults players apply
    /// where it says nothing; anything PointPaint cannot reproduce exactly (HDR transfers, other
    /// matrices and primaries, chroma sited above the luma rows of 4:2:0) is refused in one line.
    static func colorDescription(of parameters: AVCodecParameters, subsampling: ChromaSubsampling,
                                 fullRangeFormat: Bool, file: String) throws -> VideoColorDescription {
        var defaults: VideoColorDescription.Defaults = []
        func refuse(_ message: String) -> PointPaintError { PointPaintError(.unsupported, file: file, message) }

        let matrix: YCbCrMatrix
        switch parameters.color_space {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: matrix = .bt601
        case AVCOL_SPC_BT2020_NCL: matrix = .bt2020
        case AVCOL_SPC_UNSPECIFIED, AVCOL_SPC_RESERVED:
            defaults.insert(.matrix)
            matrix = parameters.width >= 1280 || parameters.height > 576 ? .bt709 : .bt601
        default:
            throw refuse("matrix \(name(av_color_space_name(parameters.color_space))) is not supported "
                + "(PointPaint reads BT.601, BT.709 and BT.2020 non-constant-luminance video)")
        }

        let range: YCbCrRange
        switch parameters.color_range {
        case _ where fullRangeFormat: range = .full
        case AVCOL_RANGE_JPEG: range = .full
        case AVCOL_RANGE_MPEG: range = .video
        default:
            defaults.insert(.range)
            range = .video
        }

        let primaries: ColorPrimaries
        switch parameters.color_primaries {
        case AVCOL_PRI_BT709: primaries = .srgb
        case AVCOL_PRI_SMPTE432: primaries = .displayP3
        case AVCOL_PRI_BT2020: primaries = .bt2020
        case AVCOL_PRI_UNSPECIFIED, AVCOL_PRI_RESERVED, AVCOL_PRI_RESERVED0:
            defaults.insert(.primaries)
            primaries = .srgb
        default:
            throw refuse("primaries \(name(av_color_primaries_name(parameters.color_primaries))) are not supported "
                + "(PointPaint reads BT.709, Display P3 (smpte432) and BT.2020 primaries)")
        }

        let transfer: VideoTransfer
        switch parameters.color_trc {
        case AVCOL_TRC_BT709: transfer = .bt709
        case AVCOL_TRC_SMPTE170M: transfer = .bt601
        case AVCOL_TRC_IEC61966_2_1: transfer = .srgb
        case AVCOL_TRC_GAMMA22: transfer = .gamma22
        case AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12: transfer = .bt2020
        case AVCOL_TRC_UNSPECIFIED, AVCOL_TRC_RESERVED, AVCOL_TRC_RESERVED0:
            defaults.insert(.transfer)
            transfer = .bt709
        case AVCOL_TRC_ARIB_STD_B67:
            throw refuse("HLG (arib-std-b67) HDR video is not supported; PointPaint reads SDR video")
        case AVCOL_TRC_SMPTE2084:
            throw refuse("PQ (smpte2084) HDR video is not supported; PointPaint reads SDR video")
        default:
            throw refuse("transfer \(name(av_color_transfer_name(parameters.color_trc))) is not supported "
                + "(PointPaint reads SDR video with the BT.709, BT.601, BT.2020, sRGB or gamma 2.2 curve)")
        }

        let siting: ChromaSiting
        let location = parameters.chroma_location
        // Chroma sited level with a luma row (top) or below it (bottom) instead of between two
        // rows is exact only where chroma keeps every row; then only the horizontal position counts.
        let everyRow = subsampling.vertical == 1
        switch location {
        case AVCHROMA_LOC_LEFT: siting = .left
        case AVCHROMA_LOC_CENTER: siting = .center
        case AVCHROMA_LOC_UNSPECIFIED:
            defaults.insert(.chromaSiting)
            siting = .left
        case AVCHROMA_LOC_TOPLEFT where everyRow, AVCHROMA_LOC_BOTTOMLEFT where everyRow: siting = .left
        case AVCHROMA_LOC_TOP where everyRow, AVCHROMA_LOC_BOTTOM where everyRow: siting = .center
        default:
            throw refuse("chroma location \(name(av_chroma_location_name(location))) is not supported for "
                + "\(subsampling.rawValue) video (PointPaint reads left- or centre-sited chroma)")
        }

        return VideoColorDescription(matrix: matrix, range: range, primaries: primaries, transfer: transfer,
                                     chromaSiting: siting, defaults: defaults)
    }

    /// A C name from FFmpeg's tables, or `unknown`.
    static func name(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? "unknown"
    }
}
