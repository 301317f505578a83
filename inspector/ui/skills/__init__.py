"""The Skills view: skill:// resources, their SKILL.md and frontmatter findings (issue 30)."""
