extension RuntimeState {
    /// Records that `user` has been assigned the survey of `assignmentKey` (asked or held
    /// out); false when they already had been, in this process or an earlier one.
    package func claimSurveyAssignment(_ assignmentKey: String, user: String) throws -> Bool {
        let inserted = try database.query(
            "INSERT OR IGNORE INTO survey_assignments (user_id, assignment_key) VALUES (?, ?) RETURNING user_id",
            [.text(user), .text(assignmentKey)])
        return !inserted.isEmpty
    }
}
