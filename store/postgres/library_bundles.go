package postgres

import (
	"context"
	"fmt"
)

// ReviewsOf implements library.BundleReads. The subject column is the
// facet library.FacetsOf gives evidence, assessments and proposals, so the
// kinds leave proposals out; contributions_subject serves the read.
func (s *Store) ReviewsOf(ctx context.Context, revision string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM contributions
		WHERE subject = ? AND kind IN ('evidence', 'assessment', 'research-evidence', 'research-assessment')
		ORDER BY seq`, revision)
	if err != nil {
		return nil, fmt.Errorf("postgres: reviews of %s: %w", revision, err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("postgres: reviews of %s: %w", revision, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reviews of %s: %w", revision, err)
	}
	return ids, nil
}
