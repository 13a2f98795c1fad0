// OCR confusions of digits: letters that OCR reads in place of a digit ("1,2O0", "20Z4/12/01", "2021/01/3I").
#pragma once

#include <string>

namespace receipt::extract {

// The digit an OCR look-alike stands for (O/o/D -> 0, l/I/| -> 1, Z -> 2, S -> 5, b -> 6, B -> 8, g -> 9), or 0.
char confusion_digit(char c);

// `s` with every look-alike that stands next to an ASCII digit replaced by its digit; same length.
std::string read_digit_confusions(const std::string& s);

}  // namespace receipt::extract
