"""Data from elsewhere: Hub datasets at a pinned revision, a visitor's uploaded files and their
caps, and a prebuilt cache read where it is published."""
