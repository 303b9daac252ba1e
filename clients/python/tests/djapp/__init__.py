"""A Django app for test_django.py."""
