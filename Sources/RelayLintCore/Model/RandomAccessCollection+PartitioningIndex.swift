extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` holds, found by binary
    /// search: the collection must hold every element for which it is false before every element
    /// for which it is true. `endIndex` when it holds for none. (The name and meaning of
    /// swift-algorithms' method of the same name, which the project does not depend on.)
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
