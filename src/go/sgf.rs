//! SGF (FF[4]) reading and writing.
