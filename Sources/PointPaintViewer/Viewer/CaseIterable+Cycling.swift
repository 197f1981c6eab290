extension CaseIterable where Self: Equatable {
    /// The case after this one in `allCases`, wrapping round (the one before when `backwards`).
    func cycled(backwards: Bool = false) -> Self {
        let all = Array(Self.allCases)
        let i = all.firstIndex(of: self) ?? 0
        return all[(i + (backwards ? all.count - 1 : 1)) % all.count]
    }
}
