// s3rver ships no types; the tests use only run() and close().
declare module 's3rver';
